/**
 * `docsctl openapi validate FILE`: checks an OpenAPI document offline, with the
 * same parser and rules the server uses when a spec is published
 * (domain/openapi-check.ts). Valid: prints its title and version, exit 0.
 * Invalid: prints each problem as `FILE: PATH: MESSAGE` (TSV piped, a table on a
 * terminal, objects with --json) and exits 1.
 */
import type { Command } from 'commander';
import { CheckFailedError } from '../operation.js';
import { readTextInput } from '../io.js';
import type { Session } from '../session.js';

export function registerOpenApiValidate(group: Command, getSession: (command: Command) => Session): void {
  group
    .command('validate')
    .description('Check an OpenAPI document (YAML or JSON) offline; exit 1 with the problems when it is invalid')
    .argument('<file>', 'the document (- for stdin)')
    .addHelpText('after', '\nExamples:\n  $ docsctl openapi validate openapi.yaml\n  $ docsctl openapi validate spec.json --json | jq ".problems[].path"\n')
    .action(async (file: string, _options: unknown, command: Command) => {
      const session = getSession(command);
      const text = await readTextInput(session.ctx.io.in, file, 'the document');
      const { checkOpenApiText } = await import('../../domain/openapi-check.js');
      const check = await checkOpenApiText(text);
      const structured = session.format === 'json' || session.format === 'yaml';
      if (check.ok) {
        if (structured) await session.printObject({ file, valid: true, title: check.title, version: check.version, specification: check.specification }, []);
        else await session.info(`${file}: valid OpenAPI ${check.specification} document "${check.title}" version ${check.version}`);
        return;
      }
      const problems = check.errors.map((problem) => ({ file, path: problem.path ?? '', message: problem.message }));
      if (structured) await session.printObject({ file, valid: false, problems }, []);
      else {
        await session.printList(problems, [
          { header: 'FILE', get: (item) => item.file },
          { header: 'PATH', get: (item) => item.path },
          { header: 'MESSAGE', get: (item) => item.message },
        ]);
      }
      throw new CheckFailedError(`${file} is not a valid OpenAPI document (${problems.length} problem${problems.length === 1 ? '' : 's'})`);
    });
}

