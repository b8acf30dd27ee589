import { FORM_TYPES, SpamCheckClient, type FormContext, type FormType } from '@spam-check/client';
import { Command, CommanderError, Option } from 'commander';
import { checkFile } from './check-file';
import { configPath, readConfig, removeConfig, writeConfig } from './config-file';
import { CliError, EXIT, exitCodeOf } from './exit-codes';
import { formatResult, formatSummary } from './output';
import { checksCommand, feedbackCommand } from './review-commands';
import { positiveInt, readText, signedInClient, withCommon, type Common } from './session';

const DEFAULT_URL = 'http://127.0.0.1:8080';
/**
 * The options of what the form was and who wrote it, and the context of a check from them
 * (absent when none was given).
 */
interface FormOptions {
  formType?: FormType;
  authorName?: string;
  authorUrl?: string;
}
function withForm(command: Command): Command {
  return command
    .addOption(
      new Option('--form-type <type>', 'the kind of form the submission came from').choices([...FORM_TYPES]),
    )
    .option('--author-name <name>', 'the name the author gave (at most 200 characters)')
    .option('--author-url <url>', 'the website the author gave (at most 2,000 characters)');
}
function contextOf(options: FormOptions): { context?: FormContext } {
  const context: FormContext = {
    ...(options.formType === undefined ? {} : { form_type: options.formType }),
    ...(options.authorName === undefined ? {} : { author_name: options.authorName }),
    ...(options.authorUrl === undefined ? {} : { author_url: options.authorUrl }),
  };
  return Object.keys(context).length > 0 ? { context } : {};
}

function print(
  options: Common,
  kind: 'mail' | 'text' | 'hybrid',
  result: Parameters<typeof formatResult>[1],
) {
  process.stdout.write(options.json ? `${JSON.stringify(result, null, 2)}\n` : formatResult(kind, result));
  return result.verdict === 'spam' ? EXIT.SPAM : EXIT.OK;
}

/** `spam-check login`: sign in with the password grant. */
function loginCommand(program: Command, env: NodeJS.ProcessEnv, done: (code: number) => void): void {
  withCommon(program.command('login'))
    .description(
      'sign in (password grant, or --client-credentials for a server) and keep the tokens (not the password) in the config file',
    )
    .option('--client-id <id>', 'OAuth client id (or SPAM_CHECK_CLIENT_ID)')
    .option('--client-secret <secret>', 'OAuth client secret (or SPAM_CHECK_CLIENT_SECRET)')
    .option(
      '--client-credentials',
      'sign in as the client itself (client_credentials grant: no user, no refresh token)',
    )
    .option('--username <name>', 'user name (or SPAM_CHECK_USERNAME)')
    .option('--password <password>', 'password (or SPAM_CHECK_PASSWORD, or --password-stdin)')
    .option('--password-stdin', 'read the password from standard input')
    .action(async (options: Common & Record<string, string | boolean | undefined>) => {
      const pick = (name: string, variable: string) => {
        const value = (options[name] as string | undefined) ?? env[variable];
        if (!value)
          throw new CliError(
            `missing --${name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)} (or ${variable})`,
            EXIT.USAGE,
          );
        return value;
      };
      const clientId = pick('clientId', 'SPAM_CHECK_CLIENT_ID');
      const clientSecret = pick('clientSecret', 'SPAM_CHECK_CLIENT_SECRET');
      const asClient = options.clientCredentials === true;
      const username = asClient ? undefined : pick('username', 'SPAM_CHECK_USERNAME');
      const password = asClient
        ? undefined
        : options.passwordStdin
          ? readText('-').replace(/\r?\n$/, '')
          : pick('password', 'SPAM_CHECK_PASSWORD');
      const url = options.url ?? env.SPAM_CHECK_URL ?? DEFAULT_URL;
      const client = new SpamCheckClient({
        baseUrl: url,
        client: { clientId, clientSecret },
        ...(username !== undefined && password !== undefined
          ? { user: { username, password } }
          : { grant: 'client_credentials' as const }),
        ...(options.lang ? { language: options.lang } : {}),
      });
      const tokens = await client.signIn();
      const path = configPath(env);
      writeConfig(path, {
        url,
        client_id: clientId,
        client_secret: clientSecret,
        ...(asClient ? { grant: 'client_credentials' as const } : {}),
        ...(options.lang ? { language: options.lang } : {}),
        tokens,
      });
      if (options.json) process.stdout.write(`${JSON.stringify({ signed_in: true, url, config: path })}\n`);
      else
        process.stdout.write(
          `signed in to ${url} as ${username ?? `client ${clientId}`}; tokens kept in ${path}\n`,
        );
      done(EXIT.OK);
    });
}

/** `spam-check logout`: revoke the tokens, forget the config. */
function logoutCommand(program: Command, env: NodeJS.ProcessEnv, done: (code: number) => void): void {
  withCommon(program.command('logout'))
    .description('revoke the kept tokens and remove the config file')
    .action(async (options: Common) => {
      const path = configPath(env);
      if (readConfig(path)?.tokens) await signedInClient(options, env).signOut();
      removeConfig(path);
      if (!options.json) process.stdout.write('signed out\n');
      done(EXIT.OK);
    });
}

/** `spam-check mail`: one address, or a CSV file of them. */
function mailCommand(program: Command, env: NodeJS.ProcessEnv, done: (code: number) => void): void {
  withForm(withCommon(program.command('mail')))
    .description('check one address, or a CSV file of addresses (--input, --output)')
    .argument('[address]', 'the address to check')
    .option('--input <file.csv>', 'a CSV file with a header row')
    .option('--column <name>', 'the column holding the addresses', 'email')
    .option(
      '--output <results.csv>',
      'where the results go (the input plus result columns); run again to resume',
    )
    .option('--batch-size <n>', 'addresses per batch (1 to 1000)', positiveInt(1000), 1000)
    .option('--concurrency <n>', 'batches in flight at once (1 to 16)', positiveInt(16), 4)
    .action(
      async (
        address: string | undefined,
        options: Common & FormOptions & Record<string, string | number | undefined>,
      ) => {
        if (options.input === undefined) {
          if (address === undefined)
            throw new CliError('give an address, or --input and --output', EXIT.USAGE);
          const request = { email: address, ...contextOf(options) };
          done(print(options, 'mail', await signedInClient(options, env).checkMail(request)));
          return;
        }
        if (address !== undefined || options.output === undefined)
          throw new CliError('with --input, give --output and no address', EXIT.USAGE);
        const summary = await checkFile(signedInClient(options, env), {
          input: String(options.input),
          output: String(options.output),
          column: String(options.column),
          batchSize: Number(options.batchSize),
          concurrency: Number(options.concurrency),
          progress: !options.json && Boolean(process.stderr.isTTY),
        });
        process.stdout.write(options.json ? `${JSON.stringify(summary)}\n` : formatSummary(summary));
        done(summary.failed > 0 ? EXIT.ROWS_FAILED : EXIT.OK);
      },
    );
}

/** The options of a text (`text` and `hybrid`), and the text of a check from them. */
interface TextOptions {
  title: string;
  bodyFile: string;
  subTitle?: string;
}
function withText(command: Command): Command {
  return withForm(command)
    .requiredOption('--title <title>', 'title or subject')
    .requiredOption('--body-file <path>', 'file holding the body (- for standard input)')
    .option('--sub-title <subtitle>', 'optional subtitle');
}
function textOf(options: TextOptions & FormOptions) {
  return {
    title: options.title,
    body: readText(options.bodyFile),
    ...(options.subTitle === undefined ? {} : { sub_title: options.subTitle }),
    ...contextOf(options),
  };
}

/** `spam-check text`: one text. */
function textCommand(program: Command, env: NodeJS.ProcessEnv, done: (code: number) => void): void {
  withText(withCommon(program.command('text')).description('check a text')).action(
    async (options: Common & TextOptions) => {
      done(print(options, 'text', await signedInClient(options, env).checkText(textOf(options))));
    },
  );
}

/** `spam-check hybrid`: an address and a text together. */
function hybridCommand(program: Command, env: NodeJS.ProcessEnv, done: (code: number) => void): void {
  withText(
    withCommon(program.command('hybrid'))
      .description('check an address and a text together')
      .requiredOption('--email <address>', 'the address'),
  )
    .option('--step-by-step', 'the address first; the text only if the address is not spam')
    .action(async (options: Common & TextOptions & { email: string; stepByStep?: boolean }) => {
      const request = { email: options.email, ...textOf(options) };
      const result = await signedInClient(options, env).checkHybrid(request, {
        stepByStep: Boolean(options.stepByStep),
      });
      done(print(options, 'hybrid', result));
    });
}

/** Builds the `spam-check` program; each action resolves to the exit code. */
export function buildProgram(env: NodeJS.ProcessEnv, setExitCode: (code: number) => void): Command {
  const program = new Command('spam-check')
    .description('Check e-mail addresses and texts for spam with the spam check API')
    .showHelpAfterError()
    .exitOverride();
  for (const add of [
    loginCommand,
    logoutCommand,
    mailCommand,
    textCommand,
    hybridCommand,
    checksCommand,
    feedbackCommand,
  ])
    add(program, env, setExitCode);
  return program;
}

/** Runs `spam-check` with `argv` (as `process.argv`) and resolves to its exit code. */
export async function main(argv: string[], env: NodeJS.ProcessEnv = process.env): Promise<number> {
  let exitCode: number = EXIT.OK;
  const program = buildProgram(env, (code) => (exitCode = code));
  try {
    await program.parseAsync(argv);
    return exitCode;
  } catch (error) {
    if (error instanceof CommanderError) return error.exitCode === 0 ? EXIT.OK : EXIT.USAGE;
    process.stderr.write(`spam-check: ${(error as Error).message}\n`);
    return exitCodeOf(error);
  }
}
