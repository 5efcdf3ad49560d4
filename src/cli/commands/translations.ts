/** `docsctl translation …`: an organization's translation settings (API doc §4.16). */
import { type OperationCommandSpec } from '../operation.js';

const translationArg = [{ name: 'translationSettingsId', description: 'translation settings id' }];
const languagesFlag = {
  flags: '--language <codes>',
  description: 'target languages, comma-separated (en, fr, de, pt-br, …)',
  to: 'body.languages',
  type: 'list' as const,
};

export const translationCommands: OperationCommandSpec[] = [
  {
    command: 'translation list',
    route: 'listTranslations',
    summary: 'List the translation settings of an organization',
    aliases: ['ls'],
    org: true,
    output: 'list',
    columns: 'translation',
    noun: 'translation setting',
    examples: ['docsctl translation list'],
  },
  {
    command: 'translation get',
    route: 'getTranslation',
    summary: 'Show translation settings',
    args: translationArg,
    org: true,
    output: 'object',
    columns: 'translation',
    examples: ['docsctl translation get tr4n5'],
  },
  {
    command: 'translation create',
    route: 'createTranslation',
    summary: 'Create translation settings (admin)',
    org: true,
    flags: [{ flags: '--title <title>', description: 'title (1 to 100)', to: 'body.title', required: true }, languagesFlag],
    output: 'object',
    columns: 'translation',
    examples: ['docsctl translation create --title "EU languages" --language fr,de,es'],
  },
  {
    command: 'translation edit',
    route: 'updateTranslation',
    summary: 'Replace the title (and languages) of translation settings (admin)',
    args: translationArg,
    org: true,
    flags: [{ flags: '--title <title>', description: 'title (1 to 100)', to: 'body.title', required: true }, languagesFlag],
    output: 'object',
    columns: 'translation',
    examples: ['docsctl translation edit tr4n5 --title "EU" --language fr,de'],
  },
  {
    command: 'translation delete',
    route: 'deleteTranslation',
    summary: 'Delete translation settings (admin)',
    aliases: ['rm'],
    args: translationArg,
    org: true,
    confirm: (input) => `Delete translation settings ${input.params?.translationSettingsId}?`,
    output: 'delete',
    columns: 'translation',
    noun: 'translation setting',
    examples: ['docsctl translation delete tr4n5 --yes'],
  },
];
