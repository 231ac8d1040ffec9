import pg from "pg";

type Callback = (payload: string) => void;

/** LISTEN on PostgreSQL for a whole process: one connection, however many listeners. */
export interface NotificationListener {
  /** Resolves once the LISTEN is in place; the result stops this listener. */
  listen(channel: string, onPayload: Callback): Promise<() => Promise<void>>;
  close(): Promise<void>;
}

/** How long to wait before reconnecting after the listening connection dropped. */
const RECONNECT_DELAY_MS = 1_000;

const quoteIdentifier = (name: string) => `"${name.replaceAll('"', '""')}"`;

/**
 * A dedicated connection outside Prisma's pool: a pooled connection would be
 * handed to other queries and lose its LISTENs. When the connection drops it
 * is reopened and every channel listened to again; notifications sent while it
 * was down are lost (NOTIFY is not queued for absent listeners).
 */
export function createNotificationListener(connectionString: string): NotificationListener {
  const callbacks = new Map<string, Set<Callback>>();
  let client: pg.Client | null = null;
  let connecting: Promise<pg.Client> | null = null;
  let reconnectTimer: NodeJS.Timeout | null = null;
  let closed = false;

  const dropped = (lost: pg.Client) => {
    if (client !== lost) return;
    client = null;
    lost.end().catch(() => {});
    scheduleReconnect();
  };

  const scheduleReconnect = () => {
    if (closed || reconnectTimer || callbacks.size === 0) return;
    reconnectTimer = setTimeout(() => {
      reconnectTimer = null;
      connected().catch(scheduleReconnect);
    }, RECONNECT_DELAY_MS);
    reconnectTimer.unref();
  };

  const connected = (): Promise<pg.Client> => {
    if (client) return Promise.resolve(client);
    connecting ??= (async () => {
      const next = await openListeningClient(connectionString, callbacks, dropped);
      if (closed) {
        await next.end();
        throw new Error("The database is closed");
      }
      client = next;
      return next;
    })().finally(() => {
      connecting = null;
    });
    return connecting;
  };

  return {
    async listen(channel, onPayload) {
      if (closed) throw new Error("The database is closed");
      // A wrapper, so that the same function listening twice is two listeners.
      const callback: Callback = (payload) => onPayload(payload);
      let channelCallbacks = callbacks.get(channel);
      if (!channelCallbacks) {
        channelCallbacks = new Set();
        callbacks.set(channel, channelCallbacks);
      }
      channelCallbacks.add(callback);
      try {
        // LISTEN again even if another listener did: its LISTEN may still be in
        // flight, and listening twice is harmless.
        await (await connected()).query(`LISTEN ${quoteIdentifier(channel)}`);
      } catch (error) {
        channelCallbacks.delete(callback);
        throw error;
      }
      return async () => {
        channelCallbacks.delete(callback);
        if (channelCallbacks.size > 0 || callbacks.get(channel) !== channelCallbacks) return;
        callbacks.delete(channel);
        await client?.query(`UNLISTEN ${quoteIdentifier(channel)}`).catch(() => {});
      };
    },
    async close() {
      closed = true;
      callbacks.clear();
      if (reconnectTimer) clearTimeout(reconnectTimer);
      const current = client ?? (await connecting?.catch(() => null)) ?? null;
      client = null;
      await current?.end().catch(() => {});
    },
  };
}

/**
 * A new connection that has LISTENed on every channel of `callbacks` and
 * calls their callbacks with each notification; `onLost` hears when it fails or ends.
 */
async function openListeningClient(
  connectionString: string,
  callbacks: ReadonlyMap<string, ReadonlySet<Callback>>,
  onLost: (lost: pg.Client) => void,
): Promise<pg.Client> {
  const next = new pg.Client({ connectionString });
  next.on("notification", (message) => {
    for (const callback of callbacks.get(message.channel) ?? []) callback(message.payload ?? "");
  });
  next.on("error", () => onLost(next));
  next.on("end", () => onLost(next));
  await next.connect();
  try {
    for (const channel of callbacks.keys()) await next.query(`LISTEN ${quoteIdentifier(channel)}`);
  } catch (error) {
    await next.end().catch(() => {});
    throw error;
  }
  return next;
}
