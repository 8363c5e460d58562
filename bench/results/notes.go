package results

import (
	"fmt"
	"strings"
	"time"
)

// The notes a run records (Run.Notes) that state its method and what
// only the runner knows of its capacity search: their words are here,
// with the results they explain, so that the runner, which fills in
// their figures, needs nothing of the report's.

// Method is what the notes on a run's method quote that results.json's
// settings do not hold: how the runner sampled, what the scenarios ask
// for, and which sources it used. The runner fills it in; the words are
// MethodNotes'.
type Method struct {
	// MaxConnections, Warmup, Duration and Cooldown time every run.
	MaxConnections             int
	Warmup, Duration, Cooldown time.Duration
	// SampleInterval is how often the apps, PostgreSQL, the runner and
	// the machine were sampled; PostgreSQL's full process list was read
	// every TreeEvery samples and its memory every MemoryEvery.
	SampleInterval         time.Duration
	TreeEvery, MemoryEvery int
	// ReadSmallLimit is the page read-small asks for, DefaultLimit the
	// apps' default page, ReadSlimLimit the persons read-slim asks for.
	ReadSmallLimit, DefaultLimit, ReadSlimLimit int
	// Mix is the mixed scenario's shares, in order.
	Mix []MixShare
	// ParitySource names the reference the apps' fields were checked
	// against; empty when none was read.
	ParitySource string
	// ScrapeInterval is how often apps' metrics were scraped, 0 when no
	// app's were; Replicas is true when an app ran as several processes.
	ScrapeInterval time.Duration
	Replicas       bool
	// ProfileCPU is true when CPU profiles were taken.
	ProfileCPU bool
	// GRPCConns is the HTTP/2 connections each grpc app's load went over;
	// 0 when no grpc app was measured.
	GRPCConns int
	// AMQPConns is the AMQP connections each amqp app's load went over;
	// 0 when no amqp app was measured.
	AMQPConns int
	// Clients is the closed loop's clients (-model closed); 0 for the
	// open model.
	Clients int
}

// MixShare is one scenario's share of the mixed scenario.
type MixShare struct {
	Percent  int
	Scenario string
}

// MethodNotes state the method, so that a reader of the report knows what
// the numbers mean without reading the code; the runner records them
// among a run's notes.
func MethodNotes(m Method) []string {
	notes := standardNotes(m)
	notes = append(notes, sourceNotes(m)...)
	notes = append(notes, grpcNotes(m)...)
	notes = append(notes, amqpNotes(m)...)
	return append(notes, profileNotes(m)...)
}

// standardNotes state what every run's numbers mean.
func standardNotes(m Method) []string {
	notes := loadNotes(m)
	notes = append(notes, []string{
		"Each app gives every request a deadline (REQUEST_TIMEOUT, 5 s by default, the same for all apps) and answers 503 when the database, or a connection from the pool, did not come in time: an overloaded app shows failed requests, not latencies above its deadline.",
		fmt.Sprintf("read-small asks every app for %d open vacancies (limit/first %d), above the default page of %d, so each app returns the complete open list of the default dataset.", m.ReadSmallLimit, m.ReadSmallLimit, m.DefaultLimit),
		fmt.Sprintf("read-slim asks each kind for what a client that needs every person's id and name (a picker, a type-ahead) gets from it, for the same %d persons as read-many: GraphQL selects only id, firstName and lastName; the REST API has no sparse-fieldset parameter, so a REST client gets the full list (read-many's request, checked as read-many); the site answers its person picker's fragment, an <option> per person, checked to carry every person's id and names. SQL statements per request count queries, not the columns they read: an app that reads fewer columns of the same rows shows it in PostgreSQL's CPU per request, not in the statement count.", m.ReadSlimLimit),
		"write: vegeta measures single requests, so a write run is a rotation of single steps — create a vacancy, update a row an earlier create made, delete a row an earlier update changed — each step one request " + stepPace(m) + " (about a third each). Every create has a title of its own; rows still alive when the attack ends are deleted after the window, and the vacancy count is checked to be unchanged.",
		fmt.Sprintf("mixed: %s, interleaved evenly; its write share follows the write rotation.", mixText(m.Mix)),
		fmt.Sprintf("CPU is a fraction of one core (1.0 = one core), read in nanoseconds from each process's CPU clock (clock_getcpuclockid; /proc's 10 ms ticks only for the children PostgreSQL has reaped), rates over windows of at least 1 s; CPU-ms per request divides the window's CPU time by its successful requests, and is shown as below resolution where a reading's lag (up to a scheduler tick per busy thread) could make up all of it. The app, PostgreSQL, the runner and the machine (/proc/stat) are sampled together every %s, so their figures cover the same window; PostgreSQL is the postmaster and its processes, listed from the postmaster's children at every sample (a backend that starts during a run is counted from its first sample) and in full every %d samples, its memory measured every %d samples. App RSS is VmRSS; PostgreSQL memory is the Pss sum of the server's processes; PostgreSQL CPU includes its background processes.",
			m.SampleInterval, m.TreeEvery, m.MemoryEvery),
		"SQL statements per request: pg_stat_statements calls in the apps' database over the whole attack, warm-up included (BEGIN and COMMIT count), divided by all its successful requests — a per-request cost, counted with no request straddling the bounds.",
		"Raw vegeta results (raw/*.bin) hold the measured window only, without response bodies: vegeta report and vegeta plot read them. Samples CSVs: samples/<run>.csv for the app, samples/<run>.postgres.csv for PostgreSQL.",
		"The runner's own cost (runner): CPU mean is getrusage over the whole invocation (start-up, seeding and validation included), CPU max the busiest attack's average; its CPU-ms per request is its CPU during the attacks divided by every request sent, warm-up included. The sampler's overhead is its own thread's CPU while sampling.",
	}...)
	if m.ParitySource != "" {
		notes = append(notes, fmt.Sprintf("Field parity was checked against the %s: JSON values compared after lower-casing GraphQL enums and reading GraphQL IDs as numbers; the site's pages were checked to show the same names, e-mail addresses, titles and payers.", m.ParitySource))
	}
	return notes
}

// loadNotes state how the load was sent and what its measured window is:
// the open model's schedule, or a closed loop's clients.
func loadNotes(m Method) []string {
	timing := fmt.Sprintf("Each run is %s of warm-up (discarded) then %s measured; apps are measured one at a time in rotating order with %s of cool-down.", m.Warmup, m.Duration, m.Cooldown)
	if m.Clients > 0 {
		return []string{
			fmt.Sprintf("Closed loop (-model closed): %d client(s), each sending its next request as soon as its last was answered, with no think time (against an HTTP app each on a connection of its own): never more than %d request(s) in flight, and the app's speed sets the rate. ", m.Clients, m.Clients) + timing,
			"The measured window is the requests the clients sent after the warm-up: a client is free again only when its answer came back, and none sends once the window has ended. Served rate = those requests / the window's length. Throughput = their successful answers / the later of the window's length and the time from its start to the last answer. A request succeeds with status 2xx/3xx and the right kind of answer (a GraphQL errors payload or an unexpected status is a failure).",
		}
	}
	return []string{
		fmt.Sprintf("Open model: vegeta sends on schedule whatever the app answers, with unlimited workers and at most %d connections per app; requests waiting for a connection count in the latency. ", m.MaxConnections) + timing,
		"The measured window is the requests scheduled after the warm-up: exactly rate × duration of them, sent however late the load generator runs. Achieved rate = those requests / the time from when the first was due to the last send plus one scheduled interval, never less than the window's length (below the target when the load generator fell behind and never caught up; a burst that catches up is not a higher rate). Throughput = their successful answers / the later of that time and the time from when the first was due to the last answer. A request succeeds with status 2xx/3xx and the right kind of answer (a GraphQL errors payload or an unexpected status is a failure).",
	}
}

// stepPace says how a write run's steps are paced.
func stepPace(m Method) string {
	if m.Clients > 0 {
		return "from the clients in turn"
	}
	return "at the target rate"
}

// sourceNotes state how figures from the apps' metrics were taken, when
// some were.
func sourceNotes(m Method) []string {
	if m.ScrapeInterval <= 0 {
		return nil
	}
	notes := []string{fmt.Sprintf("App metrics (Prometheus, scraped every %s, never more often than once a second): the pool's wait per request is pgxpool_acquire_duration_seconds_total over the scrapes around the window, scaled to its length, divided by the window's requests. Where /proc could not or was told not to be used (-no-proc), CPU and RSS come from process_cpu_seconds_total and process_resident_memory_bytes of the same scrapes (the report says which): rates over the scrapes around the window, in 10 ms ticks, so CPU-ms per request is coarser there.",
		m.ScrapeInterval)}
	if m.Replicas {
		notes = append(notes, "An app run as replicas (-metrics-url given for it more than once) has the sum of its replicas' figures, each from its own scrapes: CPU (its peak the sum of the replicas' peaks, a bound), RSS (mean, peak, start and end each added up), the pool's acquisitions, wait and size. A replica not read over a window makes the app's figures n/a there, never a sum of the others. Each replica's samples are in samples/<run>.replica1.csv and on; samples/<run>.csv holds none.")
	}
	return notes
}

// profileNotes state how CPU profiles were taken, when they were.
func profileNotes(m Method) []string {
	if !m.ProfileCPU {
		return nil
	}
	return []string{
		fmt.Sprintf("CPU profiles (profiles/<run>.pb.gz, go tool pprof reads them): taken on each app's loopback admin address (a Go app's net/http/pprof, a Node.js app's V8 profiler), sampling at 100 Hz, over the measured window's whole seconds (%s) from its scheduled start. Profiling adds CPU to the app: compare CPU-ms per request with a run without -profile-cpu.",
			m.Duration.Truncate(time.Second)),
	}
}

// mixText lists the mixed scenario's shares: "40% read-one, …".
func mixText(mix []MixShare) string {
	parts := make([]string, len(mix))
	for i, w := range mix {
		parts[i] = fmt.Sprintf("%d%% %s", w.Percent, w.Scenario)
	}
	return strings.Join(parts, ", ")
}

// CapacityNotes say what only the runner knows of a capacity search, the
// report's capacity section stating the SLO, the ramp and the
// confirmation from the settings: the cores an app's CPU limit was judged
// against — appCores, the CPUs the apps had to themselves (-cpus), or,
// when zero, all of the machine's cores, since the runner sets no
// GOMAXPROCS for the apps it starts and does not know attached apps' —,
// and which apps ran as replicas (replicas maps each such app to their
// number), listed in the order of apps.
func CapacityNotes(attached bool, cores, appCores int, apps []string, replicas map[string]int) []string {
	var notes []string
	switch {
	case appCores > 0:
		notes = append(notes, fmt.Sprintf("Capacity: each app ran on %d CPU(s) of its own (-cpus; Go sized its GOMAXPROCS to them), PostgreSQL and the runner on others: \"app-cpu\" means the app's own CPUs were full, and the capacity per core is the capacity divided by them.", appCores))
	case attached:
		notes = append(notes, fmt.Sprintf("Capacity: the attached apps' GOMAXPROCS is not known to the runner, so an app's CPU limit is judged against all %d cores of this machine.", cores))
	default:
		notes = append(notes, fmt.Sprintf("Capacity: the runner starts the apps without GOMAXPROCS, so each may use all %d cores, and an app's CPU limit is judged against them.", cores))
	}
	for _, a := range apps {
		if n := replicas[a]; n > 1 {
			notes = append(notes, fmt.Sprintf("Capacity: %s runs as %d replicas, whose cores the runner does not know: its CPU in the probes is their sum, in cores, and is not judged; a stop reason never names the app's CPU (nor counts it as this machine's), and an app that ran out of CPU shows as queueing.", a, n))
		}
	}
	return notes
}

// grpcNotes say how the grpc kind was driven, when one was measured.
func grpcNotes(m Method) []string {
	if m.GRPCConns == 0 {
		return nil
	}
	return []string{
		fmt.Sprintf("grpc: every request is a unary call on the same schedule, sent over %s per app and taken in turn (-grpc-conns; one is what a gRPC client makes of a target, every call in flight a stream of it): gRPC multiplexes, so this count, not the HTTP apps' connection cap, is the grpc load's connections, and another count changes the result. A call's status is counted as its HTTP equivalent (OK 200, NOT_FOUND 404, UNAVAILABLE 503, …), so raw files read in vegeta report as the report counts them; bytes per response are the response message's Protobuf bytes, without gRPC's 5-byte frame and HTTP/2 headers, as the other kinds' are their bodies without HTTP headers.",
			connectionsText(m.GRPCConns)),
	}
}

// amqpNotes say how the amqp kind was driven, when one was measured.
func amqpNotes(m Method) []string {
	if m.AMQPConns == 0 {
		return nil
	}
	conns := "one AMQP connection"
	if m.AMQPConns > 1 {
		conns = fmt.Sprintf("%d AMQP connections", m.AMQPConns)
	}
	return []string{
		fmt.Sprintf("amqp: every request is a request message published on the same schedule to the app's queue, over %s per app with one channel each, taken in turn (-amqp-conns), and its reply awaited on RabbitMQ's direct reply-to within the request timeout (sent as the message's expiration): the broker sits between the load and the app, so an amqp request's latency and CPU include a hop through it that the other kinds do not make. A reply's status header is counted as the HTTP status it carries, so raw files read in vegeta report as the report counts them; bytes per response are the reply's body, REST's JSON, without AMQP's frames and properties.", conns),
	}
}

// connectionsText is n HTTP/2 connections, in words fit for a sentence.
func connectionsText(n int) string {
	if n == 1 {
		return "one HTTP/2 connection"
	}
	return fmt.Sprintf("%d HTTP/2 connections", n)
}

// CapacityRepeatNote says how repeated capacity searches (-capacity
// -repeat n) met their apps: each on a freshly started process when the
// runner started the app, on one process for the attached apps, which it
// cannot start (listed in attached); empty for a single search.
func CapacityRepeatNote(n int, attached []string) string {
	if n <= 1 {
		return ""
	}
	s := fmt.Sprintf("Capacity: each (scenario, app) was searched %d times, the app stopped and started afresh before each search, so that every search met a young process as a first one does (its tail is part of the capacity: searches on one warm process would hide it); each search records its process id. The capacity quoted is the searches' median, with their range.", n)
	switch {
	case len(attached) == 0:
	case len(attached) == 1:
		s += fmt.Sprintf(" %s was attached and cannot be restarted by the runner: its %d searches ran on the same process, the later ones on a process the earlier ones warmed.", attached[0], n)
	default:
		s += fmt.Sprintf(" %s were attached and cannot be restarted by the runner: the %d searches of each ran on the same process, the later ones on a process the earlier ones warmed.", ListText(attached), n)
	}
	return s
}

// ListText joins names as a sentence does: "a", "a and b", "a, b and c".
func ListText(items []string) string {
	switch len(items) {
	case 0:
		return ""
	case 1:
		return items[0]
	}
	return strings.Join(items[:len(items)-1], ", ") + " and " + items[len(items)-1]
}
