import { startChatServer } from './chat-server.ts';

const server = await startChatServer();
console.log(`LangGraph chat listening on ${server.url}`);
console.log(
  `Try: curl -X POST ${server.url}/chat -d '{"conversation":"a","message":"plan: Build; Test"}'`,
);
console.log(
  `Or stream it as useStream's FetchStreamTransport does: curl -N -X POST ${server.url}/stream -d '{"input":{"messages":[{"type":"human","content":"plan: Build; Test"}]},"config":{"configurable":{"thread_id":"b"}}}'`,
);
