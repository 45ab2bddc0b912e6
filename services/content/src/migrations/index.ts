import { CreateContent1732400000000 } from './1732400000000-create-content.migration';
import { CreateDiscoveryDocuments1732600000000 } from './1732600000000-create-discovery-documents.migration';
import { PublicListIndexesAndNotifications1732800000000 } from './1732800000000-public-list-indexes-and-notifications.migration';
import { BlockAwarePostText1733600000000 } from './1733600000000-block-aware-post-text.migration';
import { DemoLessonsSeo1733700000000 } from './1733700000000-demo-lessons-seo.migration';

/** Every migration of content, in order (the platform adds the outbox and inbox tables before them). */
export const contentMigrations = [
  CreateContent1732400000000,
  CreateDiscoveryDocuments1732600000000,
  PublicListIndexesAndNotifications1732800000000,
  BlockAwarePostText1733600000000,
  DemoLessonsSeo1733700000000,
];
