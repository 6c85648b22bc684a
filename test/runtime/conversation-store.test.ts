import { InMemoryConversationStore } from '@flotilla/runtime';
import { describeConversationStore } from './conversation-store-conformance.js';

describeConversationStore('in-memory', () => new InMemoryConversationStore());
