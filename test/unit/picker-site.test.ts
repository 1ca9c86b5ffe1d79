// server/picker/site.ts: the picker's scripts as served. With a map (PICKER_MAP_TILE_URL), picker.js carries the
// map's settings over its placeholder and picker-map.js is served to pages of any origin; without one, picker.js is
// the file as built and there is no picker-map.js. The demo page's CSP lets the tile server's images in.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { runInNewContext } from "node:vm";
import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MAP_PLACEHOLDER, pickerSite, tileSource, type PickerMap } from "../../server/picker/site.ts";

const BUILT = `(()=>{var L={map:${MAP_PLACEHOLDER}};console.log(L.map)})();`;
const MAP: PickerMap = {
  tileUrl: "https://{s}.tiles.example/{z}/{x}/{y}{r}.png?key=abc",
  // Quotes, a backslash, markup and a line separator: all must stay text inside the script's string.
  attribution: '© "Tiles" \\ <b>Map</b></script>\u2028 makers',
};

let dir: string;
const servers: Server[] = [];

async function serve(map?: PickerMap): Promise<string> {
  const app = express().use(pickerSite({ dir, demo: true, map }));
  const server = await new Promise<Server>((resolve) => {
    const s = app.listen(0, "127.0.0.1", () => resolve(s));
  });
  servers.push(server);
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), "picker-site-"));
  writeFileSync(path.join(dir, "picker.js"), BUILT);
  writeFileSync(path.join(dir, "picker-map.js"), "export const createMap = () => ({ show() {} });");
});
afterAll(() => {
  for (const s of servers) s.close();
  rmSync(dir, { recursive: true, force: true });
});

describe("the picker's scripts as served", () => {
  it("with no map: picker.js as built, no picker-map.js, and the demo page allows no other images", async () => {
    const origin = await serve();
    const script = await fetch(`${origin}/picker.js`);
    expect(script.status).toBe(200);
    expect(await script.text()).toBe(BUILT);
    expect((await fetch(`${origin}/picker-map.js`)).status).toBe(404);
    const csp = (await fetch(`${origin}/demo/checkout`)).headers.get("content-security-policy");
    expect(csp).toContain("img-src 'self';");
  });

  it("with a map: picker.js carries its settings as one string the picker parses, picker-map.js has CORS", async () => {
    const origin = await serve(MAP);
    const text = await (await fetch(`${origin}/picker.js`)).text();
    expect(text).not.toContain(MAP_PLACEHOLDER);
    // What the built script reads: run it, as a browser would, and take what it logs.
    const logged: unknown[] = [];
    runInNewContext(text, { console: { log: (v: unknown) => logged.push(v) } });
    expect(logged).toHaveLength(1);
    expect(JSON.parse(logged[0] as string)).toEqual({ tiles: MAP.tileUrl, attribution: MAP.attribution });

    const map = await fetch(`${origin}/picker-map.js`);
    expect(map.status).toBe(200);
    expect(map.headers.get("content-type")).toBe("text/javascript; charset=utf-8");
    expect(map.headers.get("access-control-allow-origin")).toBe("*");
    expect(map.headers.get("cross-origin-resource-policy")).toBe("cross-origin");
    expect(await map.text()).toContain("createMap");
    const csp = (await fetch(`${origin}/demo/checkout`)).headers.get("content-security-policy");
    expect(csp).toContain("img-src 'self' https://*.tiles.example;");
  });

  it("names a tile server for a CSP: its origin, or every subdomain when the template has {s}", () => {
    expect(tileSource("https://{s}.tiles.example/{z}/{x}/{y}.png")).toBe("https://*.tiles.example");
    expect(tileSource("http://127.0.0.1:8080/{z}/{x}/{y}.png")).toBe("http://127.0.0.1:8080");
    expect(tileSource("https://tiles.example:8443/a/{z}/{x}/{y}{r}.png?key=1")).toBe("https://tiles.example:8443");
  });
});
