// What the probes (in the bench's process) and the floods (in their own) know of the prepared server: plain
// JSON, handed to each flood's process on its command line. Light on purpose: docs/benchmarks.md's text
// (about.ts) reads the floods' table without loading the server.

export interface Context {
  /** The server's origin with the API's base path: requests' paths are relative to it. */
  api: string;
  quiet: { auth: string; shipmentId: string; email: string; password: string };
  noisy: { auth: string; takenEmail: string };
  /** Merchants whose keys are checked once each; all have `secret`. */
  cold: { ids: string[]; secret: string };
  /** Failed sign-ins one client address may make before it is refused (the server's setting; 0: no limit). */
  loginFailuresPerAddress: number;
}

export const basic = (user: string, secret: string) => `Basic ${Buffer.from(`${user}:${secret}`).toString("base64")}`;

/** The password of the portal users the noisy merchant creates. */
export const PASSWORD = "bench-password-not-secret";
