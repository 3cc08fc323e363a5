/** The chat-bot client as a library: `makeChatClient` and the signature it puts on each call (see `client.ts`). */
export { type ChatAnswer, type ChatCallInput, type ChatClient, type ChatClientOptions, type ChatError, type ChatReply, makeChatClient, signChatCall } from "./client.js"
