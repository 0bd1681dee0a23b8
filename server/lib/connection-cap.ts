import type { Server, Socket } from 'node:net';
import { clientKeyOf } from './networks';

export type ConnectionCapOptions = {
  /** Open connections one client (clientKeyOf its address) may hold; 0: no cap. */
  max: number;
  /** The bytes a refused connection gets before it is closed (a complete HTTP reply). */
  refusal: string;
};

/**
 * Caps the connections one client address holds open at once. Past `max`, a new connection gets
 * `refusal` (an HTTP reply, sent before any of its request is read) and is closed; the server's
 * HTTP parser never sees it, so it costs no request handling. Without this, one address opening
 * slow connections used up the process's file descriptors (19,980 of 20,000) and RSS
 * (383 → 694 MB), and /healthz could not connect.
 *
 * Behind a reverse proxy every connection comes from the proxy: the cap is then off by default
 * (CONNECTIONS_PER_IP, README), and the proxy should cap per client instead.
 */
export function capConnections<S extends Server>(server: S, options: ConnectionCapOptions): S & { openConnections: () => Map<string, number> } {
  const open = new Map<string, number>();
  const capped = server as S & { openConnections: () => Map<string, number> };
  capped.openConnections = () => new Map(open);
  if (options.max <= 0) return capped;
  // The HTTP server's own listener (its parser) runs only for connections let in.
  const listeners = server.listeners('connection') as Array<(socket: Socket) => void>;
  server.removeAllListeners('connection');
  server.on('connection', (socket: Socket) => {
    const key = clientKeyOf(socket.remoteAddress ?? '');
    const held = open.get(key) ?? 0;
    if (held >= options.max) {
      socket.on('error', () => {});
      socket.setTimeout(5_000, () => socket.destroy());
      // Whatever the client sends is read and dropped: closing on unread bytes would reset the
      // connection and could discard the reply before the client reads it.
      socket.resume();
      socket.end(options.refusal);
      return;
    }
    open.set(key, held + 1);
    socket.once('close', () => {
      const left = (open.get(key) ?? 1) - 1;
      if (left <= 0) open.delete(key);
      else open.set(key, left);
    });
    for (const listener of listeners) listener.call(server, socket);
  });
  return capped;
}
