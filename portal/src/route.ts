// Going to a view from code (links use wouter's Link).
import { navigate } from "./app/location.ts";

export const go = (...parts: string[]) => navigate(`/${parts.map(encodeURIComponent).join("/")}`);
