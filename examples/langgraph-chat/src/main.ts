import { startChatServer } from './chat-server.ts';

const server = await startChatServer();
console.log(`LangGraph chat listening on ${server.url}`);
console.log(
  `Try: curl -X POST ${server.url}/chat -d '{"conversation":"a","message":"plan: Build; Test"}'`,
);
