// Every language's words, by language.
import type { Catalogue } from "./catalogue.ts";
import { en } from "./en/index.ts";
import { fi } from "./fi/index.ts";
import { sv } from "./sv/index.ts";
import type { Lang } from "./lang.ts";

export const CATALOGUES: Record<Lang, Catalogue> = { en, fi, sv };
