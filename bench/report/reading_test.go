package report_test

import (
	"slices"
	"strings"
	"testing"

	"golang.org/x/net/html"
)

// between returns s from the first start to the next end after it.
func between(s, start, end string) string {
	i := strings.Index(s, start)
	if i < 0 {
		return ""
	}
	s = s[i+len(start):]
	if j := strings.Index(s, end); j >= 0 {
		return s[:j]
	}
	return s
}

// escaped is s as html/template escapes text.
func escaped(s string) string {
	return strings.NewReplacer(`<`, "&lt;", `>`, "&gt;", `"`, "&#34;").Replace(s)
}

func attr(n *html.Node, key string) string {
	for _, a := range n.Attr {
		if a.Key == key {
			return a.Val
		}
	}
	return ""
}

func text(n *html.Node) string {
	var b strings.Builder
	for d := range n.Descendants() {
		if d.Type == html.TextNode {
			b.WriteString(d.Data)
		}
	}
	return b.String()
}

// checkBalanced fails unless every element the page opens is closed in
// order: html.Parse forgives anything, this does not.
func checkBalanced(t *testing.T, page string) {
	t.Helper()
	void := map[string]bool{"area": true, "base": true, "br": true, "col": true, "embed": true, "hr": true,
		"img": true, "input": true, "link": true, "meta": true, "source": true, "track": true, "wbr": true}
	z := html.NewTokenizer(strings.NewReader(page))
	var stack []string
	for {
		switch z.Next() {
		case html.ErrorToken:
			if len(stack) > 0 {
				t.Errorf("report.html leaves open: %v", stack)
			}
			return
		case html.StartTagToken:
			name, _ := z.TagName()
			if !void[string(name)] {
				stack = append(stack, string(name))
			}
		case html.EndTagToken:
			name, _ := z.TagName()
			if len(stack) == 0 || stack[len(stack)-1] != string(name) {
				t.Fatalf("report.html closes </%s> while %v is open", name, stack)
			}
			stack = stack[:len(stack)-1]
		}
	}
}

func parseHTML(t *testing.T, path string) *html.Node {
	t.Helper()
	page := readFile(t, path)
	checkBalanced(t, page)
	doc, err := html.Parse(strings.NewReader(page))
	if err != nil {
		t.Fatalf("%s does not parse: %v", path, err)
	}
	return doc
}

// elements are the elements named tag under n.
func elements(n *html.Node, tag string) []*html.Node {
	var out []*html.Node
	for d := range n.Descendants() {
		if d.Type == html.ElementNode && d.Data == tag {
			out = append(out, d)
		}
	}
	return out
}

func keys(m map[string]*html.Node) []string {
	var ks []string
	for k := range m {
		ks = append(ks, k)
	}
	slices.Sort(ks)
	return ks
}
