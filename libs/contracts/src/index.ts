// The whole library, for the services; the web imports a domain's entry (`@district/contracts/content`) so a
// route carries only the schemas it uses.
export * from './common';
export * from './identity';
export * from './content';
export * from './chat';
export * from './assessment';
export * from './classroom';
// Spans every domain (each subject's payload schema), so it is here and not in a domain's entry.
export * from './subject-schemas';
