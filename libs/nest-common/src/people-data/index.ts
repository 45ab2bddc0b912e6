export * from './people-data';
export { AuditTrail } from './audit-trail';
export { PeopleDataModule, userDeletedDurable } from './people-data.module';
