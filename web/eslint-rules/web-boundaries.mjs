// One-way imports inside web/src (CONVENTIONS.md rules 1-2, bulletproof-react):
//   shared (components, config, lib, testing) -> features -> app
// and a feature never imports another feature. Import paths are resolved (alias `@/` or relative)
// before checking, so `../other-feature/x` is caught as surely as `@/features/other-feature`,
// and a new feature folder is covered without touching this file.
// Contracts come through a domain entry (`@district/contracts/content`), never the root barrel, which would put
// every domain's schemas in the entry chunk.
import path from 'node:path';

const SHARED = new Set(['components', 'config', 'lib', 'testing', 'types', 'assets']);

/** Where a file or import target sits: { layer: 'app' | 'features' | <shared> , feature?: string } */
function locate(srcRoot, absolutePath) {
  const rel = path.relative(srcRoot, absolutePath);
  if (rel.startsWith('..') || path.isAbsolute(rel)) return null;
  const [top, second] = rel.split(path.sep);
  if (top === 'features') return { layer: 'features', feature: second };
  if (top === 'app') return { layer: 'app' };
  if (SHARED.has(top)) return { layer: 'shared', name: top };
  return { layer: 'root' };
}

export const webBoundaries = {
  meta: {
    type: 'problem',
    docs: { description: 'Keep web/src imports one-way and features independent of each other.' },
    schema: [],
    messages: {
      crossFeature:
        "Feature '{{from}}' must not import feature '{{to}}'. Move shared code to components/ or lib/, or compose both in app/.",
      sharedToUpper:
        'Shared code ({{from}}/) must not import from {{to}}; dependencies point shared -> features -> app.',
      featureToApp:
        "Feature '{{from}}' must not import from app/; the app composes features, not the reverse.",
      contractsRoot:
        "Import a domain entry such as '@district/contracts/content', not the '@district/contracts' barrel.",
    },
  },
  create(context) {
    const filename = context.filename;
    const marker = `${path.sep}web${path.sep}src${path.sep}`;
    const at = filename.lastIndexOf(marker);
    if (at === -1) return {};
    const srcRoot = filename.slice(0, at + marker.length - 1);
    const from = locate(srcRoot, filename);
    if (!from) return {};

    function check(node, source) {
      if (typeof source !== 'string') return;
      if (source === '@district/contracts') {
        context.report({ node, messageId: 'contractsRoot' });
        return;
      }
      let target;
      if (source.startsWith('@/')) target = path.join(srcRoot, source.slice(2));
      else if (source.startsWith('.')) target = path.resolve(path.dirname(filename), source);
      else return;
      const to = locate(srcRoot, target);
      if (!to) return;
      if (from.layer === 'features' && to.layer === 'features' && to.feature && to.feature !== from.feature) {
        context.report({ node, messageId: 'crossFeature', data: { from: from.feature, to: to.feature } });
      } else if (from.layer === 'features' && to.layer === 'app') {
        context.report({ node, messageId: 'featureToApp', data: { from: from.feature } });
      } else if (
        from.layer === 'shared' &&
        from.name !== 'testing' &&
        (to.layer === 'features' || to.layer === 'app')
      ) {
        context.report({
          node,
          messageId: 'sharedToUpper',
          data: { from: from.name, to: to.layer === 'app' ? 'app/' : `features/${to.feature}` },
        });
      }
    }

    return {
      ImportDeclaration: (node) => check(node.source, node.source.value),
      ExportNamedDeclaration: (node) => node.source && check(node.source, node.source.value),
      ExportAllDeclaration: (node) => check(node.source, node.source.value),
      ImportExpression: (node) => node.source.type === 'Literal' && check(node.source, node.source.value),
    };
  },
};

export default { rules: { boundaries: webBoundaries } };
