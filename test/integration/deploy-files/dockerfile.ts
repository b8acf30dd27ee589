import { readText } from './files';

export interface Instruction {
  keyword: string;
  args: string;
}

export interface Stage {
  name: string;
  from: string;
  instructions: Instruction[];
}

/** The Dockerfile as stages of instructions (continuation lines joined, comments dropped, ARGs applied). */
export function parseDockerfile(path = 'Dockerfile'): { args: Record<string, string>; stages: Stage[] } {
  const lines = readText(path)
    .replace(/\\\r?\n(\s*#.*\r?\n)*/g, ' ')
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line && !line.startsWith('#'));
  const args: Record<string, string> = {};
  const stages: Stage[] = [];
  for (const line of lines) {
    const [keyword = '', ...rest] = line.split(/\s+/);
    const instruction = { keyword: keyword.toUpperCase(), args: rest.join(' ') };
    if (instruction.keyword === 'ARG' && stages.length === 0) {
      const [name = '', value = ''] = instruction.args.split('=');
      args[name] = value;
    } else if (instruction.keyword === 'FROM') {
      const match = /^(\S+)(?:\s+AS\s+(\S+))?$/i.exec(instruction.args);
      if (!match) throw new Error(`cannot read FROM ${instruction.args}`);
      const image = match[1]!.replace(/\$\{(\w+)\}|\$(\w+)/g, (_, a, b) => args[(a ?? b) as string] ?? '');
      stages.push({ name: match[2] ?? `stage-${stages.length}`, from: image, instructions: [] });
    } else {
      const stage = stages.at(-1);
      if (!stage) throw new Error(`${instruction.keyword} before the first FROM`);
      stage.instructions.push(instruction);
    }
  }
  return { args, stages };
}

/** A stage's instructions with those of the stages it is built FROM first (USER, ENV and so on inherit). */
export function effectiveInstructions(stages: Stage[], name: string): Instruction[] {
  const stage = stages.find((candidate) => candidate.name === name);
  if (!stage) throw new Error(`no stage ${name}`);
  const parent = stages.find((candidate) => candidate.name === stage.from);
  return [...(parent ? effectiveInstructions(stages, parent.name) : []), ...stage.instructions];
}

/** The base image a stage ends up on, following FROM <stage> links. */
export function baseImage(stages: Stage[], name: string): string {
  const stage = stages.find((candidate) => candidate.name === name);
  if (!stage) throw new Error(`no stage ${name}`);
  const parent = stages.find((candidate) => candidate.name === stage.from);
  return parent ? baseImage(stages, parent.name) : stage.from;
}

/** ENV instructions as a map (the `KEY=value KEY2=value2` form). */
export function envOf(instructions: Instruction[]): Record<string, string> {
  const env: Record<string, string> = {};
  for (const { args } of instructions.filter((instruction) => instruction.keyword === 'ENV'))
    for (const [, key, value] of args.matchAll(/(\w+)=("[^"]*"|\S*)/g))
      env[key!] = value!.replace(/^"|"$/g, '');
  return env;
}

/** The JSON array of an exec-form CMD/HEALTHCHECK CMD, or undefined for the shell form. */
export function execForm(args: string): string[] | undefined {
  const json = args.replace(/^.*?\bCMD\s+/, '').trim();
  if (!json.startsWith('[')) return undefined;
  return JSON.parse(json) as string[];
}
