// The page as a Discord Activity: Discord's frame adds frame_id and instance_id to its
// address, and the bot's server names its application (the kozel-discord-client meta,
// set only where the Activity is set up). The Embedded App SDK (vendor/, loaded only
// here) does the handshake with Discord's client; `authorize` (scope identify) gives a
// one-time code, which the bot's server exchanges with Discord for the user's access
// token (POST discord/token: the client secret stays on the server). The hello says the
// token and the instance, and the server asks Discord who he is and whether he takes
// part (WEB.md).

function clientId() {
  return document.querySelector('meta[name="kozel-discord-client"]')?.content ?? "";
}

/** Whether the page runs inside a Discord Activity of this bot. */
export function inDiscord() {
  const query = new URLSearchParams(location.search);
  return query.has("frame_id") && query.has("instance_id") && clientId() !== "";
}

/** Why the page cannot say who it is: the words to show (the server's, else a page
 * message id) and the server's code (`unavailable`: Discord did not answer, try again). */
export class Refusal extends Error {
  constructor(text, code = "", id = "web-discord-refused") {
    super(text || id);
    this.text = text;
    this.code = code;
    this.id = id;
  }
}

let sdk = null;
let session = null;

/** The SDK, once: its handshake with Discord's client done. */
function connected() {
  sdk ??= (async () => {
    const { DiscordSDK } = await import("./vendor/discord-sdk.js");
    const client = new DiscordSDK(clientId(), { disableConsoleLogOverride: true });
    await client.ready();
    return client;
  })();
  return sdk;
}

/** The hello's `discord` part ({access_token, instance}): a code from Discord's
 * `authorize`, exchanged on the bot's server; once it is had, kept. */
export async function discordSession(locale) {
  if (session) return session;
  let code;
  let instance;
  try {
    const client = await connected();
    ({ code } = await client.commands.authorize({
      client_id: clientId(),
      response_type: "code",
      state: "",
      prompt: "none",
      scope: ["identify"],
    }));
    instance = client.instanceId;
  } catch {
    throw new Refusal(""); // no handshake, or the user said no
  }
  const response = await fetch(new URL("discord/token", document.baseURI), {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ code, locale }),
    credentials: "omit",
  });
  let body = {};
  try {
    body = await response.json();
  } catch {
    // Not the bot's answer (a proxy's page): refused below.
  }
  if (!response.ok || typeof body.access_token !== "string") {
    throw new Refusal(body.text ?? "", body.error ?? "");
  }
  session = { access_token: body.access_token, instance };
  return session;
}

/** The session said so far, if any. */
export function currentSession() {
  return session;
}
