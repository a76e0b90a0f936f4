/**
 * The server's counters, written in the Prometheus text exposition format (version 0.0.4) by hand:
 * a handful of counters, gauges and one histogram need no client library.
 */

/** Upper bounds of the latency histogram, in seconds: 50 µs to 1 s. */
export const LATENCY_BUCKETS = [0.00005, 0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1];

/** A label value, escaped as the format wants (backslash, double quote, newline). */
function label(value: string): string {
  return value.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n');
}

class Histogram {
  readonly counts = new Array<number>(LATENCY_BUCKETS.length).fill(0);
  count = 0;
  sum = 0;
  observe(seconds: number): void {
    this.count++;
    this.sum += seconds;
    for (let i = 0; i < LATENCY_BUCKETS.length; i++) {
      if (seconds <= LATENCY_BUCKETS[i]!) {
        this.counts[i]!++;
        return;
      }
    }
  }
}

export type ErrorKind = 'bad_request' | 'too_large' | 'overloaded' | 'deadline' | 'shutting_down' | 'internal' | 'not_found' | 'unauthorized';

export class Metrics {
  /** `endpoint\0decision\0rule` → count. */
  private readonly decisions = new Map<string, number>();
  private readonly latency = new Map<string, Histogram>();
  private readonly errors = new Map<string, number>();
  reloadsOk = 0;
  reloadsFailed = 0;
  lastReloadOk = true;
  lastReloadTime = Date.now() / 1000;
  auditDropped = 0;
  auditWriteErrors = 0;
  inflight = 0;
  connections = 0;

  decision(endpoint: string, decision: string, rule: string): void {
    const key = `${endpoint}\0${decision}\0${rule}`;
    this.decisions.set(key, (this.decisions.get(key) ?? 0) + 1);
  }

  observe(endpoint: string, seconds: number): void {
    let h = this.latency.get(endpoint);
    if (!h) this.latency.set(endpoint, (h = new Histogram()));
    h.observe(seconds);
  }

  error(kind: ErrorKind): void {
    this.errors.set(kind, (this.errors.get(kind) ?? 0) + 1);
  }

  reload(ok: boolean): void {
    if (ok) this.reloadsOk++;
    else this.reloadsFailed++;
    this.lastReloadOk = ok;
    this.lastReloadTime = Date.now() / 1000;
  }

  render(version: string): string {
    const out: string[] = [];
    const head = (name: string, type: string, help: string) => out.push(`# HELP ${name} ${help}`, `# TYPE ${name} ${type}`);
    head('verdict_decisions_total', 'counter', 'Decisions made, by endpoint, decision and deciding rule (none: no rule decided).');
    for (const [key, n] of this.decisions) {
      const [endpoint = '', decision = '', rule = ''] = key.split('\0');
      out.push(`verdict_decisions_total{endpoint="${label(endpoint)}",decision="${label(decision)}",rule="${label(rule)}"} ${n}`);
    }
    head('verdict_request_duration_seconds', 'histogram', 'Time from a request’s arrival to its answer, by endpoint.');
    for (const [endpoint, h] of this.latency) {
      let cumulative = 0;
      for (let i = 0; i < LATENCY_BUCKETS.length; i++) {
        cumulative += h.counts[i]!;
        out.push(`verdict_request_duration_seconds_bucket{endpoint="${label(endpoint)}",le="${LATENCY_BUCKETS[i]}"} ${cumulative}`);
      }
      out.push(`verdict_request_duration_seconds_bucket{endpoint="${label(endpoint)}",le="+Inf"} ${h.count}`);
      out.push(`verdict_request_duration_seconds_sum{endpoint="${label(endpoint)}"} ${h.sum}`);
      out.push(`verdict_request_duration_seconds_count{endpoint="${label(endpoint)}"} ${h.count}`);
    }
    head('verdict_errors_total', 'counter', 'Requests answered with a deny because they could not be decided, by kind.');
    for (const [kind, n] of this.errors) out.push(`verdict_errors_total{kind="${kind}"} ${n}`);
    head('verdict_policy_reloads_total', 'counter', 'Policy reloads, by result (failed: the old policy kept serving).');
    out.push(`verdict_policy_reloads_total{result="ok"} ${this.reloadsOk}`, `verdict_policy_reloads_total{result="failed"} ${this.reloadsFailed}`);
    head('verdict_policy_last_reload_ok', 'gauge', '1 when the last reload loaded (or there was none yet), 0 when it failed.');
    out.push(`verdict_policy_last_reload_ok ${this.lastReloadOk ? 1 : 0}`);
    head('verdict_policy_last_reload_timestamp_seconds', 'gauge', 'When the policy was last loaded or a reload last failed.');
    out.push(`verdict_policy_last_reload_timestamp_seconds ${this.lastReloadTime}`);
    head('verdict_policy_info', 'gauge', 'The version (content hash) of the serving policy.');
    out.push(`verdict_policy_info{version="${label(version)}"} 1`);
    head('verdict_inflight_requests', 'gauge', 'Requests accepted and not yet answered.');
    out.push(`verdict_inflight_requests ${this.inflight}`);
    head('verdict_open_connections', 'gauge', 'Open client connections.');
    out.push(`verdict_open_connections ${this.connections}`);
    head('verdict_audit_dropped_total', 'counter', 'Audit log lines dropped because the log could not keep up.');
    out.push(`verdict_audit_dropped_total ${this.auditDropped}`);
    head('verdict_audit_write_errors_total', 'counter', 'Failed writes to the audit log.');
    out.push(`verdict_audit_write_errors_total ${this.auditWriteErrors}`);
    head('process_resident_memory_bytes', 'gauge', 'Resident memory size in bytes.');
    out.push(`process_resident_memory_bytes ${process.memoryUsage.rss()}`);
    head('nodejs_heap_used_bytes', 'gauge', 'V8 heap in use, in bytes.');
    out.push(`nodejs_heap_used_bytes ${process.memoryUsage().heapUsed}`);
    return `${out.join('\n')}\n`;
  }
}
