/**
 * A lexical look at Go templates (Helm's template language), for structure checks when no helm binary
 * is at hand: it finds the actions, not their meaning.
 */
export interface Action {
  text: string;
  line: number;
}

/** Every {{ … }} action of a template, comments excluded, with the trim markers removed. */
export function actions(template: string): Action[] {
  const found: Action[] = [];
  const pattern = /\{\{-?\s*([\s\S]*?)\s*-?\}\}/g;
  for (let match = pattern.exec(template); match; match = pattern.exec(template)) {
    const text = match[1];
    if (text.startsWith('/*')) continue;
    found.push({ text, line: template.slice(0, match.index).split('\n').length });
  }
  return found;
}

/** Problems with the nesting of if/range/with/define/block … end, or else outside a block. */
export function blockProblems(template: string): string[] {
  const problems: string[] = [];
  const stack: Action[] = [];
  for (const action of actions(template)) {
    const keyword = /^(\w+)/.exec(action.text)?.[1];
    if (keyword && ['if', 'range', 'with', 'define', 'block'].includes(keyword)) stack.push(action);
    else if (keyword === 'else' && stack.length === 0)
      problems.push(`line ${action.line}: else outside a block`);
    else if (keyword === 'end' && !stack.pop())
      problems.push(`line ${action.line}: end without an open block`);
  }
  for (const open of stack) problems.push(`line ${open.line}: "${open.text}" is never closed`);
  return problems;
}

/** Dotted paths read under .Values (also via $root.Values or .root.Values), e.g. "ingress.annotations". */
export function valuesPaths(template: string): string[] {
  const paths = new Set<string>();
  for (const { text } of actions(template)) {
    for (const match of text.matchAll(/(?:\$\w*|\.root)?\.Values((?:\.[A-Za-z_]\w*)+)/g))
      paths.add(match[1].slice(1));
  }
  return [...paths];
}

export function definedTemplates(template: string): string[] {
  return [...template.matchAll(/\{\{-?\s*define\s+"([^"]+)"/g)].map((m) => m[1]);
}

export function includedTemplates(template: string): string[] {
  return [...template.matchAll(/\binclude\s+"([^"]+)"/g)].map((m) => m[1]);
}
