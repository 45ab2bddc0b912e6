import { serviceRoute, type ServiceDefinition } from '@district/nest-common';
import { CHAT_SERVICE_NAME, ChatModule, type ChatModuleOptions } from './chat.module';
import { CHAT_PEOPLE_DATA } from './users/people-data.holder';

export { ChatModule, CHAT_SERVICE_NAME, type ChatModuleOptions } from './chat.module';

/** chat in the launcher's target registry. Tests pass a throwaway schema. */
export function defineChatService(options: ChatModuleOptions = {}): ServiceDefinition {
  return {
    name: CHAT_SERVICE_NAME,
    // Its tokens are identity's, and its invite list is identity's answer.
    dependsOn: ['identity'],
    defaultPort: 4105,
    // Chatrooms: the list people choose from, and the admin's management (with the invite list below it);
    // `/ws`, the live chat room (the gateway sends WebSocket upgrades to whoever declares it).
    routes: [
      serviceRoute('/api/chatrooms', 'tree', '/api/chatrooms'),
      serviceRoute('/api/admin/chatrooms', 'tree', '/api/admin/chatrooms/invitable-users'),
      serviceRoute('/ws', 'exact', '/ws'),
    ],
    // It holds people's data (ADR 0036): the platform audits and answers for it, identity asks it.
    peopleData: CHAT_PEOPLE_DATA,
    rootModule: (runtime) => ChatModule.forRoot(runtime, options),
  };
}

export const chatService: ServiceDefinition = defineChatService();
