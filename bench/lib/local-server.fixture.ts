import type http from 'node:http';
import type { AddressInfo } from 'node:net';

/** Listens on a free loopback port; resolves with the server's origin. */
export function listen(server: http.Server): Promise<string> {
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () =>
      resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`),
    );
  });
}

/** Closes the server and every connection still open to it. */
export function close(server: http.Server): Promise<void> {
  server.closeAllConnections();
  return new Promise((resolve) => server.close(() => resolve()));
}
