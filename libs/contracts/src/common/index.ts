export * from './events';
export * from './errors';
export * from './user-export';
export * from './audit';
export * from './people-data';
export * from './paging';
