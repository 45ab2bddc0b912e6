export * from './messages';
export * from './rules';
export * from './schemas';
export * from './events';
export * from './html-policy';
export * from './html-text';
export * from './seo-analysis';
