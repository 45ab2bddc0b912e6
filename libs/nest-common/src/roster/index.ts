export * from './roster-projection.migration';
export * from './roster-projection.repository';
export * from './roster-scope';
export * from './roster-projection.module';
