// `npm run soak`: the soak of tools/soak.ts against two instances on the PostgreSQL of DATABASE_URL
// (a throw-away database beside it). SOAK_SECONDS (default 180) and SOAK_RATE (requests a second, default
// 50) bound it; exits 1 when a check fails. A short form runs in the test suite (test/process/soak.test.ts).
import { formatReport, runSoak } from "../tools/soak.ts";

const adminUrl = process.env.DATABASE_URL || process.env.TEST_DATABASE_URL || "postgres://postgres@127.0.0.1:5432/test";
const seconds = Number(process.env.SOAK_SECONDS ?? 180);
const rate = Number(process.env.SOAK_RATE ?? 50);
if (!(seconds > 0 && seconds <= 3600) || !(rate > 0 && rate <= 1000)) {
  console.error("SOAK_SECONDS must be 1-3600 and SOAK_RATE 1-1000");
  process.exit(2);
}
const report = await runSoak({ adminUrl, seconds, rate, log: (l) => console.log(l) });
console.log(formatReport(report));
process.exit(report.problems.length ? 1 : 0);
