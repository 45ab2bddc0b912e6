import { CreateContent1732400000000 } from './1732400000000-create-content.migration';
import { CreateDiscoveryDocuments1732600000000 } from './1732600000000-create-discovery-documents.migration';

/** Every migration of content, in order (the platform adds the outbox and inbox tables before them). */
export const contentMigrations = [CreateContent1732400000000, CreateDiscoveryDocuments1732600000000];
