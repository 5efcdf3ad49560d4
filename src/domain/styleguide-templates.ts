/**
 * docsctl's built-in style guide templates (0.202 `StyleguideTemplate`), by the ids the route
 * declares (src/api/routes/styleguides.ts `StyleguideTemplateId`; the type below makes the two
 * lists one). Each is one Markdown page: `createSiteStyleguideById` imports it as the README.md
 * of the new style guide space, so its first heading titles the page.
 */
import type { RouteInput } from '../api/route.js';
import type * as routes from '../api/routes/styleguides.js';

type TemplateId = NonNullable<RouteInput<typeof routes.createSiteStyleguideById>['body']['template']>;

export interface StyleguideTemplate {
  id: TemplateId;
  title: string;
  subtitle: string;
  emoji: string;
  markdown: string;
}

const technicalWriting = `# Technical writing style guide

How we write documentation: for readers who want to get something done and leave.

## Voice and tone

- Write in the second person ("you"), present tense and active voice.
- Be direct and friendly, never chatty. Cut filler such as "simply", "just", "easily" and "please note".
- Say what the reader does, then why, only when the why helps them decide.

| Instead of | Write |
| --- | --- |
| The file can be uploaded by the user. | Upload the file. |
| It is recommended that you restart. | Restart the server. |
| Simply click Save. | Click **Save**. |

## Structure

- One page, one purpose: a tutorial teaches, a how-to guide solves one task, a reference describes, an explanation explains. Do not mix them on a page.
- Start every page with one sentence that says what it covers and who it is for.
- Put prerequisites before the first step, not inside it.
- Number steps that must happen in order; use bullets for everything else.
- Keep each step to one action. Put the expected result after the step: "The dashboard opens."

## Headings

- Use sentence case: "Create an API token", not "Create An API Token".
- Start task headings with a verb: "Configure single sign-on".
- Do not skip levels, and never put two headings in a row without text between them.

## Words

- Use the product's names exactly as the interface shows them, in **bold** for UI elements.
- Put code, commands, file names, paths and values in \`code\`.
- Define an acronym the first time a page uses it: "single sign-on (SSO)".
- Prefer short words: "use" over "utilize", "start" over "initiate", "about" over "approximately".

## Code samples

- Every sample must run as shown. Mark placeholders in capitals: \`YOUR_API_TOKEN\`.
- Give the language of each code block, and show the output when it helps the reader check their work.
- Keep secrets out of samples, even fake ones that look real.

## Links

- Link text says where the link goes: "see [Authentication](authentication.md)", never "click here".
- Link to the first mention of a concept on a page, not to every mention.
`;

const apiReference = `# API reference style guide

How we document endpoints, parameters and errors so that every reference page reads the same.

## Endpoint pages

- Title each endpoint with what it does, in sentence case: "List the members of an organization".
- Show the method and path first: \`GET /v1/orgs/{organizationId}/members\`.
- Follow with one sentence on when to call it, then the parameters, the request body, the response and the errors, in that order.

## Parameters and fields

- Name them exactly as the API spells them, in \`code\`: \`organizationId\`, not "organization ID".
- For each one give its type, whether it is required, its default, and its allowed values or range.
- Describe what a field means, not its type again: "The time the member joined, in ISO 8601" rather than "A string".
- Say what happens when an optional field is left out.

| Field | Type | Required | Description |
| --- | --- | --- | --- |
| \`limit\` | integer | no | Items per page, 1 to 1000. Default: 50. |
| \`page\` | string | no | The cursor of the next page, from the previous answer's \`next.page\`. |

## Examples

- Give one complete request and its response for every endpoint, with realistic values.
- Use \`curl\` for requests and show the headers that matter (\`Authorization\`, \`Content-Type\`).
- Mark placeholders in capitals (\`YOUR_API_TOKEN\`) and never paste a real token.
- Trim long responses with a comment, and say that you did.

## Errors

- List every status the endpoint can answer, with what causes it and how to fix it.
- Quote error messages exactly as the API sends them.

## Versions and changes

- Mark deprecated endpoints and fields at the top of their entry, with the replacement and the date they go.
- Record every change in the changelog, newest first: what changed, for whom, and what to do.
`;

const plainLanguage = `# Plain language style guide

Short, clear writing that anyone can read the first time, including people reading in a second language.

## Sentences

- Keep sentences under 20 words. Split any sentence with more than one idea.
- Put the most important information first.
- Use the active voice: "The admin approves the request", not "The request is approved".
- Write positive statements: "Keep the window open" rather than "Do not close the window".

## Words

- Choose the everyday word: "help" not "facilitate", "need" not "require", "buy" not "purchase".
- Avoid idioms and metaphors that do not translate: "out of the box", "a piece of cake".
- Use one word for one thing and keep it: do not switch between "workspace", "project" and "space".
- Spell out abbreviations the first time, and avoid Latin ones: "for example", not "e.g.".

## Layout

- Keep paragraphs to three sentences or fewer.
- Use lists for three or more items, and tables to compare options.
- Use headings that tell the reader what the section answers: "How long does a refund take?"

## Inclusive writing

- Write for everyone: use "they" for a person whose gender you do not know.
- Describe what to do, not how to perceive it: "Select **Next**", not "See the Next button".
- Give images alternative text that says what they show and why they are there.

## Check before publishing

1. Read the page aloud: rewrite anything you stumble on.
2. Ask whether a new user could do the task with this page alone.
3. Remove every word that does not help the reader.
`;

/** Every id the route takes has its template (a Record over the enum: one left out does not compile). */
const TEMPLATES: Record<TemplateId, Omit<StyleguideTemplate, 'id'>> = {
  'technical-writing': { title: 'Technical writing', subtitle: 'Voice, structure, words, code samples and links for product documentation', emoji: '✍️', markdown: technicalWriting },
  'api-reference': { title: 'API reference', subtitle: 'Endpoints, parameters, examples and errors, documented the same way everywhere', emoji: '🔌', markdown: apiReference },
  'plain-language': { title: 'Plain language', subtitle: 'Short sentences and everyday words that anyone can read the first time', emoji: '💬', markdown: plainLanguage },
};

/** The built-in templates, in the order they are listed. */
export const STYLEGUIDE_TEMPLATES: readonly StyleguideTemplate[] = Object.entries(TEMPLATES).map(([id, template]) => ({ id: id as TemplateId, ...template }));

/** The template of this id (the route's enum was checked: it is one of them). */
export function styleguideTemplate(id: TemplateId): StyleguideTemplate {
  return { id, ...TEMPLATES[id] };
}
