import { DockerfileParser, type Instruction } from 'dockerfile-ast';

export interface Stage {
  name: string | null;
  /** The base image with build arguments expanded, e.g. node:22-bookworm-slim. */
  image: string;
  instructions: Instruction[];
}

export function parseStages(text: string): Stage[] {
  const stages: Stage[] = [];
  for (const instruction of DockerfileParser.parse(text).getInstructions()) {
    const keyword = instruction.getKeyword();
    if (keyword === 'FROM') {
      const [image = '', as, name] = instruction.getExpandedArguments().map((a) => a.getValue());
      stages.push({ name: as?.toUpperCase() === 'AS' ? (name ?? null) : null, image, instructions: [] });
    } else if (stages.length > 0) {
      stages[stages.length - 1].instructions.push(instruction);
    }
  }
  return stages;
}

/** The arguments of an exec-form (JSON array) instruction; undefined for the shell form. */
export function execForm(instruction: Instruction): string[] | undefined {
  const content = (instruction.getArgumentsContent() ?? '').replace(/^CMD\s+/i, '');
  if (!content.startsWith('[')) return undefined;
  return JSON.parse(content) as string[];
}

const SECRET_NAME = /(PASSWORD|SECRET|TOKEN|PRIVATE|CREDENTIAL|(^|_)KEY$)/i;
const SECRET_FILE =
  /(^|\/)(\.env(\..*)?|.*\.pem|.*\.key|.*\.p12|.*\.pfx|id_rsa.*|id_ed25519.*|secrets?(\/.*)?)$/;
const PINNED_MAJOR = /^[\w./-]+:\d+(\.\d+)*(-[\w.-]+)?(@sha256:[0-9a-f]{64})?$/;

/** What makes an image unsafe or unrepeatable, one sentence per problem. */
export function dockerfileProblems(text: string): string[] {
  const problems: string[] = [];
  const stages = parseStages(text);
  if (stages.length < 2) problems.push('not multi-stage: build tools would ship in the runtime image');
  const stageNames = new Set<string>();
  for (const stage of stages) {
    if (!stageNames.has(stage.image) && !PINNED_MAJOR.test(stage.image)) {
      problems.push(`FROM ${stage.image}: pin at least the major version (name:22-…)`);
    }
    if (stage.name) stageNames.add(stage.name);
    for (const instruction of stage.instructions) {
      const keyword = instruction.getKeyword();
      const args = instruction.getExpandedArguments().map((a) => a.getValue());
      if (keyword === 'ADD')
        problems.push(`ADD ${args.join(' ')}: use COPY (ADD fetches URLs and unpacks archives)`);
      if (keyword === 'COPY') {
        for (const source of args.slice(0, -1)) {
          if (SECRET_FILE.test(source))
            problems.push(`COPY ${source}: secrets must not be copied into the image`);
        }
      }
      if (keyword === 'ENV' || keyword === 'ARG') {
        for (const pair of args) {
          const [name, value] = pair.split('=', 2);
          if (SECRET_NAME.test(name) && value)
            problems.push(`${keyword} ${name}: secrets must not be baked in`);
        }
      }
    }
  }
  const final = stages[stages.length - 1];
  if (final) {
    const users = final.instructions.filter((i) => i.getKeyword() === 'USER');
    const user = users.length ? (users[users.length - 1].getArgumentsContent() ?? '') : '';
    if (!user || /^(root|0)(:|$)/.test(user))
      problems.push('the final stage runs as root: add USER with a non-root id');
    const healthchecks = final.instructions.filter((i) => i.getKeyword() === 'HEALTHCHECK');
    if (healthchecks.length !== 1 || /^NONE$/i.test(healthchecks[0].getArgumentsContent() ?? '')) {
      problems.push('the final stage needs one HEALTHCHECK');
    }
  }
  return problems;
}
