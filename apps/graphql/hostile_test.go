package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"
)

// A hostile shape writes a document of about size bytes (never more than
// maxQueryBytes) meant to cost the server as much as a document of that
// size can. Each ends in a field the schema lacks, so that a document
// passing every limit is refused by the validator, having paid for all of
// it, and nothing runs.
type hostileShape struct {
	name  string
	write func(size int) string
}

// unknownField ends every hostile document.
const unknownField = " noSuchField"

// hostileShapes are the worst cases found for each way of multiplying work:
// spreads that double, many aliases, one field many times, fields the schema
// lacks (an error each, with suggestions), many directives, many fragments
// spread side by side or in a chain, deep nesting, and a document close to
// every limit at once.
var hostileShapes = []hostileShape{
	{"doubling-spreads", doublingSpreads},
	{"nested-doubling", nestedDoubling},
	{"aliases", func(size int) string {
		return fill(size, "{", "}", func(i int) string { return fmt.Sprintf(" a%d: __typename", i) })
	}},
	{"repeated-field", func(size int) string {
		return fill(size, "{", "}", func(int) string { return " __typename" })
	}},
	{"conflicting-aliases", func(size int) string {
		return fill(size, "{", "}", func(i int) string {
			if i%2 == 0 {
				return " x: __typename"
			}
			return " x: __schema { description }"
		})
	}},
	{"unknown-fields", func(size int) string {
		return fill(size, "{", "}", func(i int) string { return fmt.Sprintf(" personz%d", i) })
	}},
	{"directives", func(size int) string {
		return fill(size, "{ __typename", "}", func(int) string { return " @skip(if: false)" })
	}},
	{"wide-fragments", wideFragments},
	{"fragment-chain", fragmentChain},
	{"deep-nesting", deepNesting},
	{"at-the-limits", atTheLimits},
}

// fill returns head, then unit(0), unit(1), … for as long as the document
// stays within size, then the unknown field and tail.
func fill(size int, head, tail string, unit func(i int) string) string {
	var b strings.Builder
	b.WriteString(head)
	room := size - len(unknownField) - len(tail)
	for i := 0; ; i++ {
		u := unit(i)
		if b.Len()+len(u) > room {
			break
		}
		b.WriteString(u)
	}
	b.WriteString(unknownField)
	b.WriteString(tail)
	return b.String()
}

// doublingSpreads is the document of the report: fragment Fi spreads
// F(i-1) twice, so the last stands for 2^i fields. The fragments are as
// many as fit, up to the limit, and widened with fields to fill the size.
func doublingSpreads(size int) string {
	return doubling(size, func(i int) string { return fmt.Sprintf("...F%d ...F%d", i-1, i-1) })
}

// nestedDoubling doubles through fields, so that the depth grows with the
// expansion too.
func nestedDoubling(size int) string {
	return doubling(size, func(i int) string {
		return fmt.Sprintf("a: appointments { person { ...F%d } } b: appointments { person { ...F%d } }", i-1, i-1)
	})
}

// doubling writes as many doubling levels over fragment F0 as fit in
// size, up to the fragment limit, then widens the fragments with the fields
// of a person until the document has size bytes.
func doubling(size int, level func(i int) string) string {
	head := func(levels int) string {
		return fmt.Sprintf("{ person(id: 1) { ...F%d%s } }", levels, unknownField)
	}
	frags := []string{" fragment F0 on Person { id"}
	used := len(head(0)) + len(frags[0]) + len(" }")
	for i := 1; i < maxFragments; i++ {
		f := fmt.Sprintf(" fragment F%d on Person { %s", i, level(i))
		if used+len(f)+len(" }")+2 > size {
			break
		}
		frags = append(frags, f)
		used += len(f) + len(" }")
	}
	used += len(head(len(frags)-1)) - len(head(0))
	fields := strings.Fields(personFields)
	for i := 0; ; i++ {
		f := " " + fields[i%len(fields)]
		if used+len(f) > size {
			break
		}
		frags[i%len(frags)] += f
		used += len(f)
	}
	return head(len(frags)-1) + strings.Join(frags, " }") + " }"
}

// personFields are the scalar fields of a person.
const personFields = "id employeeNo firstName lastName email phone department status hiredOn version createdAt updatedAt"

// wideFragments spreads many small fragments side by side in one
// selection set: the validator compares every two of them.
func wideFragments(size int) string {
	var ops, frags strings.Builder
	ops.WriteString("{")
	for i := 0; ; i++ {
		spread := fmt.Sprintf(" ...W%d", i)
		frag := fmt.Sprintf(" fragment W%d on Query { w%d: __typename }", i, i)
		if ops.Len()+frags.Len()+len(spread)+len(frag)+len(unknownField)+2 > size {
			break
		}
		ops.WriteString(spread)
		frags.WriteString(frag)
	}
	return ops.String() + unknownField + " }" + frags.String()
}

// fragmentChain has each fragment spread the next: the validator walks a
// fragment's whole chain for every fragment.
func fragmentChain(size int) string {
	var b strings.Builder
	b.WriteString("{ ...C0" + unknownField + " }")
	i := 0
	for ; ; i++ {
		frag := fmt.Sprintf(" fragment C%d on Query { c%d: __typename ...C%d }", i, i, i+1)
		if b.Len()+len(frag)+40 > size {
			break
		}
		b.WriteString(frag)
	}
	fmt.Fprintf(&b, " fragment C%d on Query { __typename }", i)
	return b.String()
}

// atTheLimits comes as close to every document limit at once as its size
// allows, so that it passes them all and the validator does as much as it
// can: persons under distinct aliases, each spreading maxRepeats fragments
// that select the same fields, so that every field is repeated as often as
// allowed and every two fragments are compared; names are lengthened to
// fill the size.
func atTheLimits(size int) string {
	write := func(fragments, objects, pad int) string {
		name := func(i int) string { return fmt.Sprintf("P%d%s", i, strings.Repeat("x", pad)) }
		var b strings.Builder
		b.WriteString("{")
		for i := range objects {
			fmt.Fprintf(&b, " p%d: person(id: 1) {", i)
			for j := range maxRepeats {
				b.WriteString(" ..." + name((i*maxRepeats+j)%fragments))
			}
			b.WriteString(" }")
		}
		b.WriteString(unknownField + " }")
		for i := range fragments {
			fmt.Fprintf(&b, " fragment %s on Person { %s }", name(i), personFields)
		}
		return b.String()
	}
	// 15 persons of 10 spreads of 13 selections: 2,000 selections after
	// expansion, 150 spreads, 50 fragments.
	fragments, objects := maxFragments, 15
	for len(write(fragments, objects, 0)) > size && fragments > 1 {
		fragments, objects = max(1, fragments*9/10), max(1, objects*9/10)
	}
	pad := 0
	for len(write(fragments, objects, pad+1)) <= size {
		pad++
	}
	return write(fragments, objects, pad)
}

// deepNesting nests persons and their appointments as deeply as the size
// allows: within the selection limit, refused by the depth limit once
// validated.
func deepNesting(size int) string {
	const open, close = " appointments { person {", " } }"
	levels := (size - len("{ person(id: 1) { id } }") - len(unknownField)) / (len(open) + len(close))
	return "{ person(id: 1) {" + strings.Repeat(open, levels) + " id" + strings.Repeat(close, levels) + " }" + unknownField + " }"
}

// BenchmarkHostileDocuments measures what refusing each hostile shape costs
// at sizes up to the query limit, through the real handler over HTTP:
// cpu-ms/op is the process's CPU (server and client) per document. It
// stays in the suite so that an upgrade of gqlgen or gqlparser that brings
// super-linear work back shows here: the figures should grow at most in
// proportion to the size (go test -run ^$ -bench HostileDocuments
// ./apps/graphql).
func BenchmarkHostileDocuments(b *testing.B) {
	app := startApp(b)
	token := app.login(b, "viewer")
	for _, shape := range hostileShapes {
		for _, size := range []int{1 << 10, 2 << 10, 4 << 10, 8 << 10, 16 << 10} {
			// Room for a numbering comment: a cached document would not
			// be analysed again.
			doc := shape.write(size - 10)
			b.Run(fmt.Sprintf("%s/%dKiB", shape.name, size>>10), func(b *testing.B) {
				start := processCPU(b)
				for i := 0; b.Loop(); i++ {
					body, err := json.Marshal(map[string]any{"query": fmt.Sprintf("%s #%d", doc, i)})
					if err != nil {
						b.Fatal(err)
					}
					req, _ := http.NewRequest(http.MethodPost, app.URL+"/graphql", bytes.NewReader(body))
					req.Header.Set("Content-Type", "application/json")
					req.Header.Set("Authorization", "Bearer "+token)
					resp, err := http.DefaultClient.Do(req)
					if err != nil {
						b.Fatal(err)
					}
					answer, _ := io.ReadAll(resp.Body)
					resp.Body.Close()
					if resp.StatusCode != http.StatusOK || !bytes.Contains(answer, []byte(`"errors"`)) || bytes.Contains(answer, []byte(`"data":{`)) {
						b.Fatalf("%d bytes: HTTP %d %.300s", len(doc), resp.StatusCode, answer)
					}
				}
				cpu := processCPU(b) - start
				b.ReportMetric(float64(cpu)/float64(time.Millisecond)/float64(b.N), "cpu-ms/op")
				b.ReportMetric(float64(len(doc)), "doc-bytes")
			})
		}
	}
}
