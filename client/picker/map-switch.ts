// The list/map switch of the picker's pickup points, part of picker.js. It exists only when the server that serves
// picker.js has a map tile URL (PICKER_MAP_TILE_URL): the server writes its settings over the placeholder below
// (server/picker/site.ts). The map itself (Leaflet and its style sheet) is picker-map.js beside picker.js, built
// apart (tools/build-picker.mjs) and imported the first time a shopper opens the map: with the list only, no map
// code and no tile is ever fetched. Small on purpose: picker.js has a budget of 16 KB minified.
import type { components } from "../../generated/api.ts";
import { SWITCH_TEXTS } from "./map-texts.ts";
import type { Language } from "./texts.ts";

type Point = components["schemas"]["PickupPointWithPrice"];

/** What the server writes into picker.js: the operator's tile URL template and its credit line. */
export interface MapSettings {
  tiles: string;
  attribution: string;
}

/** One point on the map: the point, and the words of its marker's tooltip. */
export interface MapPoint {
  point: Point;
  label: string;
}

/** The map view, as picker-map.js makes it (client/picker/map.ts). */
export interface PointsMap {
  /** Shows these points (nearest first) with `chosen` highlighted; `choose` is the list's own choice of a point. */
  show(points: MapPoint[], chosen: string | undefined, language: Language, choose: (p: Point) => void): void;
}

/** picker-map.js's one export: the map in `host`, a node of the picker's shadow root. */
export type CreateMap = (host: HTMLElement, settings: MapSettings) => PointsMap;

/** Draws the switch into a fieldset, and the map in map view: true when the map is shown instead of the list. */
export type DrawSwitch = (
  into: HTMLElement,
  language: Language,
  points: MapPoint[],
  chosen: string | undefined,
  choose: (p: Point) => void,
) => boolean;

/** The placeholder the server replaces with the settings' JSON (a property's value: the minifier leaves it be). */
const SERVED = { map: "__LOGISTICS_PICKER_MAP__" };

/** picker-map.js, beside the picker.js this code runs from (read while the script runs, as the page loads it). */
const SCRIPT = typeof document !== "undefined" ? (document.currentScript as HTMLScriptElement | null)?.src : undefined;

/** One picker's switch, or nothing when the server set no map; `redraw` draws the picker again as it is. */
export function mapSwitch(redraw: () => void): DrawSwitch | undefined {
  if (!SERVED.map.startsWith("{") || !SCRIPT) return undefined;
  const settings = JSON.parse(SERVED.map) as MapSettings;
  const host = document.createElement("div");
  host.className = "map";
  let onMap = false;
  let map: PointsMap | undefined;
  let loading = false;
  let shown = () => {};
  let buttons: HTMLButtonElement[] = [];
  return (into, language, points, chosen, choose) => {
    const t = SWITCH_TEXTS[language];
    const group = document.createElement("div");
    group.className = "views";
    group.setAttribute("role", "group");
    group.setAttribute("aria-label", t.views);
    buttons = [false, true].map((toMap) => {
      const button = document.createElement("button");
      button.type = "button";
      button.textContent = toMap ? t.map : t.list;
      button.setAttribute("aria-pressed", String(onMap === toMap));
      button.onclick = () => {
        onMap = toMap;
        redraw();
        // The switch was drawn anew: the keyboard stays on the button just pressed.
        buttons.find((b) => b.getAttribute("aria-pressed") === "true")?.focus();
      };
      return button;
    });
    group.append(...buttons);
    into.append(group);
    if (!onMap) return false;
    into.append(host);
    shown = () => map!.show(points, chosen, language, choose);
    if (map) shown();
    else if (!loading) {
      // The first time, or again after a failure.
      loading = true;
      host.textContent = t.loading;
      import(new URL("picker-map.js", SCRIPT).href)
        .then(
          (m: { createMap: CreateMap }) => {
            host.textContent = "";
            map = m.createMap(host, settings);
            // What the picker last drew, without drawing it anew (the keyboard stays where it is).
            shown();
          },
          () => (host.textContent = t.failed),
        )
        .finally(() => (loading = false));
    }
    return true;
  };
}
