// The main keys that seal stored secrets (issue 55): AES-256-GCM per value, bound to its row, naming its key; the
// settings that give them, and the key file of the embedded default.
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { randomBytes } from "node:crypto";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "../../server/config.ts";
import { describeKeySource, loadMainKeys, mainKeyFile } from "../../server/secrets/key-source.ts";
import {
  keyIdOf,
  MainKeys,
  newMainKeyText,
  parseMainKey,
  sealedKeyId,
  UnreadableSecret,
} from "../../server/secrets/main-keys.ts";

const ROW = "webhook_endpoints:0123456789abcdef01234567";
const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

describe("sealing a secret", () => {
  const a = randomBytes(32);
  const b = randomBytes(32);

  it("opens to what was sealed, under the key it names, and never shows the plain text", () => {
    const keys = new MainKeys(a);
    const sealed = keys.seal("whsec_plain", ROW);
    expect(sealed).toMatch(/^v1\.[0-9a-f]{16}\.[A-Za-z0-9_-]+$/);
    expect(sealed).not.toContain("whsec_plain");
    expect(sealedKeyId(sealed)).toBe(keyIdOf(a));
    expect(keys.open(sealed, ROW)).toBe("whsec_plain");
    // A fresh nonce each time: the same secret never seals to the same text.
    expect(keys.seal("whsec_plain", ROW)).not.toBe(sealed);
  });

  it("refuses, rather than return anything else, a value of another row, a changed value, and one under a key not held", () => {
    const keys = new MainKeys(a);
    const sealed = keys.seal("whsec_plain", ROW);
    expect(() => keys.open(sealed, "webhook_endpoints:another")).toThrow(UnreadableSecret);
    const last = sealed.at(-2) === "A" ? "B" : "A";
    expect(() => keys.open(`${sealed.slice(0, -2)}${last}${sealed.at(-1)}`, ROW)).toThrow(UnreadableSecret);
    expect(() => new MainKeys(b).open(sealed, ROW)).toThrow(`sealed under main key ${keyIdOf(a)}`);
    expect(() => keys.open("whsec_plain", ROW)).toThrow("not a sealed value");
  });

  it("during a rotation reads both keys and seals under the new one", () => {
    const before = new MainKeys(a).seal("s", ROW);
    const both = new MainKeys(b, [a]);
    expect(both.ids).toEqual([keyIdOf(b), keyIdOf(a)]);
    expect(both.open(before, ROW)).toBe("s");
    expect(both.isCurrent(before)).toBe(false);
    expect(both.isCurrent(both.seal("s", ROW))).toBe(true);
  });
});

describe("main key settings", () => {
  const key = newMainKeyText();

  it("takes base64 of exactly 32 bytes, in either alphabet, and nothing else", () => {
    expect(parseMainKey(key)?.length).toBe(32);
    expect(parseMainKey(Buffer.from(key, "base64").toString("base64url"))).toEqual(Buffer.from(key, "base64"));
    for (const bad of ["", "short", randomBytes(31).toString("base64"), randomBytes(33).toString("base64"), `${key}x`])
      expect(parseMainKey(bad)).toBeUndefined();
  });

  it("is required on PostgreSQL in production; a bad one is named without being repeated", () => {
    const pg = { DATABASE_URL: "postgres://db/x", NODE_ENV: "production" };
    expect(() => loadConfig(pg)).toThrow(/SECRETS_MAIN_KEY is required with DATABASE_URL when NODE_ENV=production/);
    expect(loadConfig({ ...pg, SECRETS_MAIN_KEY: key }).secretsMainKey).toEqual([Buffer.from(key, "base64")]);
    expect(loadConfig({ DATABASE_URL: "postgres://db/x" }).secretsMainKey).toEqual([]);
    const bad = "not-a-key-but-a-password";
    let err: unknown;
    try {
      loadConfig({ SECRETS_MAIN_KEY: bad, SECRETS_READ_KEYS: `${key},${bad}` });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ConfigError);
    expect((err as ConfigError).problems).toEqual([
      "SECRETS_MAIN_KEY must be a key, each base64 of 32 bytes (npm run cli -- secrets new-key)",
      "SECRETS_READ_KEYS must be comma-separated keys, each base64 of 32 bytes (npm run cli -- secrets new-key); entry 2 is not",
    ]);
    expect((err as Error).message).not.toContain(bad);
  });

  it("without SECRETS_MAIN_KEY, generates an owner-only key file beside the embedded database, then keeps it", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "main-key-"));
    dirs.push(dir);
    const settings = { secretsMainKey: [], secretsReadKeys: [], pgliteDir: path.join(dir, "pglite") };
    const first = await loadMainKeys(settings);
    const file = mainKeyFile(settings.pgliteDir);
    expect(first.source).toEqual({ from: "file", file, generated: true, tightened: false });
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const line = describeKeySource(first);
    expect(line).toContain(`under main key ${first.keys.currentId} generated now into ${file}`);
    expect(line).not.toContain(readFileSync(file, "utf8").trim());
    const again = await loadMainKeys(settings);
    expect(again.keys.currentId).toBe(first.keys.currentId);
    expect(again.source).toMatchObject({ generated: false });

    writeFileSync(file, "garbage\n");
    await expect(loadMainKeys(settings)).rejects.toThrow(`The main key file ${file} does not hold a key`);
    const set = await loadMainKeys({ ...settings, secretsMainKey: [Buffer.from(key, "base64")] });
    expect(set.source).toEqual({ from: "SECRETS_MAIN_KEY" });
    expect(describeKeySource(set)).not.toContain(key);
  });
});
