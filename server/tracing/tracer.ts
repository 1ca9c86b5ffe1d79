// Traces (OpenTelemetry), off unless the standard OTEL_* settings ask for them: an operator who hears "your
// checkout answer took two seconds" follows that request through its validation, its handler and each statement,
// and the webhook deliveries it caused (linked to it). Spans are our own rather than automatic instrumentation,
// which the server bundle would hide from require hooks. Off, nothing here runs beyond one check of `tracer`.
// Attributes never carry secrets or personal data: no headers, bodies, query strings or statement values.
import {
  context,
  propagation,
  SpanKind,
  SpanStatusCode,
  trace,
  type Attributes,
  type Context,
  type Link,
  type Span,
  type Tracer,
} from "@opentelemetry/api";

let tracer: Tracer | undefined;

export { SpanKind, SpanStatusCode, type Span };

/** Whether tracing is on (startTracing ran with an exporter configured). */
export const tracing = () => tracer !== undefined;

/** The tracing settings of config/settings.ts (the standard OTEL_* variables this server reads). */
export interface TracingSettings {
  otelSdkDisabled: boolean;
  otelTracesExporter?: string;
  otelEndpoint?: string;
  otelTracesEndpoint?: string;
  otelServiceName: string;
  otelTracesSampler: string;
  otelTracesSamplerArg?: string;
  otelBspScheduleDelayMs: number;
}

/** On when an exporter is configured: OTEL_TRACES_EXPORTER=otlp or an OTLP endpoint, and not disabled. */
export function tracingWanted(c: TracingSettings): boolean {
  if (c.otelSdkDisabled) return false;
  const exporter = c.otelTracesExporter?.toLowerCase();
  if (exporter === "none") return false;
  return exporter === "otlp" || Boolean(c.otelEndpoint || c.otelTracesEndpoint);
}

/** Where spans go: the traces URL, else the base endpoint's /v1/traces, else the standard local collector. */
export function tracesUrl(c: TracingSettings): string {
  if (c.otelTracesEndpoint) return c.otelTracesEndpoint;
  return `${(c.otelEndpoint ?? "http://localhost:4318").replace(/\/+$/, "")}/v1/traces`;
}

/**
 * Starts the SDK when wanted; returns how to flush and stop it, or undefined when off. The SDK is imported only
 * then, so that a server without traces does not run any of it.
 */
export async function startTracing(
  c: TracingSettings,
  serviceVersion: string,
): Promise<(() => Promise<void>) | undefined> {
  if (!tracingWanted(c)) return undefined;
  const [sdk, { OTLPTraceExporter }, { resourceFromAttributes }, hooks, core] = await Promise.all([
    import("@opentelemetry/sdk-trace"),
    import("@opentelemetry/exporter-trace-otlp-http"),
    import("@opentelemetry/resources"),
    import("@opentelemetry/context-async-hooks"),
    import("@opentelemetry/core"),
  ]);
  const ratio = c.otelTracesSamplerArg === undefined ? 1 : Number(c.otelTracesSamplerArg);
  const samplers: Record<string, () => import("@opentelemetry/sdk-trace").Sampler> = {
    always_on: () => new sdk.AlwaysOnSampler(),
    always_off: () => new sdk.AlwaysOffSampler(),
    traceidratio: () => new sdk.TraceIdRatioBasedSampler(ratio),
    parentbased_always_on: () => new sdk.ParentBasedSampler({ root: new sdk.AlwaysOnSampler() }),
    parentbased_always_off: () => new sdk.ParentBasedSampler({ root: new sdk.AlwaysOffSampler() }),
    parentbased_traceidratio: () => new sdk.ParentBasedSampler({ root: new sdk.TraceIdRatioBasedSampler(ratio) }),
  };
  const provider = new sdk.TracerProvider({
    resource: resourceFromAttributes({ "service.name": c.otelServiceName, "service.version": serviceVersion }),
    sampler: (samplers[c.otelTracesSampler] ?? samplers.parentbased_always_on!)(),
    spanProcessors: [
      new sdk.BatchSpanProcessor({
        exporter: new OTLPTraceExporter({ url: tracesUrl(c) }),
        scheduledDelayMillis: c.otelBspScheduleDelayMs,
      }),
    ],
  });
  // A CommonJS package: node's import gives its exports by name and as `default`, the server's bundle (split into
  // chunks, tools/build.mjs) only as `default`.
  const { AsyncLocalStorageContextManager } = hooks.default;
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  propagation.setGlobalPropagator(new core.W3CTraceContextPropagator());
  trace.setGlobalTracerProvider(provider);
  tracer = provider.getTracer("logistics-api", serviceVersion);
  return async () => {
    tracer = undefined;
    await provider.shutdown();
  };
}

/** A span started now; undefined when tracing is off. `parent` defaults to the active context. */
export function startSpan(
  name: string,
  o: { kind?: SpanKind; attributes?: Attributes; links?: Link[]; parent?: Context; root?: boolean } = {},
): Span | undefined {
  if (!tracer) return undefined;
  return tracer.startSpan(
    name,
    { kind: o.kind ?? SpanKind.INTERNAL, attributes: o.attributes, links: o.links, root: o.root },
    o.parent ?? context.active(),
  );
}

/** Runs `fn` in `span` (its children nest under it); ends it, with the error if `fn` throws. */
export async function inSpan<T>(span: Span | undefined, fn: () => Promise<T>): Promise<T> {
  if (!span) return fn();
  try {
    return await context.with(trace.setSpan(context.active(), span), fn);
  } catch (err) {
    failed(span, err);
    throw err;
  } finally {
    span.end();
  }
}

/** Marks `span` failed with the error's class only (its message may quote input). */
export function failed(span: Span | undefined, err: unknown): void {
  span?.setStatus({ code: SpanStatusCode.ERROR });
  span?.setAttribute("error.type", (err as { code?: unknown })?.code?.toString() ?? (err as Error)?.name ?? "Error");
}

/** The incoming request's trace context (W3C traceparent), as the parent of its server span. */
export function extractContext(headers: Record<string, unknown>): Context {
  return propagation.extract(context.active(), headers);
}

/** Runs `fn` with `span` active, synchronously (Express's next()). */
export function withSpan<T>(span: Span, fn: () => T): T {
  return context.with(trace.setSpan(context.active(), span), fn);
}

/** The active span as a W3C traceparent (the propagator's own), to store beside what it caused; null when off. */
export function currentTraceParent(): string | null {
  if (!tracer) return null;
  const carrier: { traceparent?: string } = {};
  propagation.inject(context.active(), carrier);
  return carrier.traceparent ?? null;
}

/** A link to the span a stored traceparent names (a delivery to the request that recorded its event). */
export function linkTo(traceParent: string | null | undefined): Link | undefined {
  if (!traceParent) return undefined;
  const linked = trace.getSpanContext(extractContext({ traceparent: traceParent }));
  return linked && trace.isSpanContextValid(linked) ? { context: linked } : undefined;
}

/** Statement spans: the verb and the SQL text with its placeholders (never the values). */
export function statementSpan(text: string): Span | undefined {
  if (!tracer || !trace.getSpan(context.active())) return undefined;
  const verb = /^\s*(\w+)/.exec(text)?.[1]?.toLowerCase() ?? "query";
  return startSpan(`db ${verb}`, {
    kind: SpanKind.CLIENT,
    attributes: {
      "db.system.name": "postgresql",
      "db.operation.name": verb,
      "db.query.text": text.length > 2_000 ? `${text.slice(0, 2_000)}…` : text,
    },
  });
}

/** Runs a statement in its span (when a request or delivery is being traced). */
export function traced<T>(text: unknown, run: () => Promise<T>): Promise<T> {
  return inSpan(typeof text === "string" ? statementSpan(text) : undefined, run);
}
