// Command goreference decides tool calls as the reference does, with Go's own regexp and
// encoding/json (standard library only). It is the oracle of the differential test beside it
// (go-reference.test.ts); see README.md.
//
// Input, one JSON object per line on stdin:
//
//	{"policy":"<policy file text, JSON>","lines":["<base64 of one request line>", ...]}
//
// Output: first {"go":"go1.x.y","unicode":"x.y.z"}, then one line per case:
//
//	{"results":[{"decision":"deny","reason":"…"} | {"badLine":true} | {"skip":"why"}, ...]}
//	or {"skip":"why"} for a whole case, or {"policyError":"…"}.
package main

import (
	"bufio"
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"regexp"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"unicode"
)

type ruleConfig struct {
	Tool  string  `json:"tool"`
	Match string  `json:"match"`
	Field *string `json:"field"`
}

type approverConfig struct {
	Mode    string       `json:"mode"`
	Default string       `json:"default"`
	Reason  string       `json:"reason"`
	Input   string       `json:"input"`
	Allow   []ruleConfig `json:"allow"`
	Deny    []ruleConfig `json:"deny"`
}

type policyFile struct {
	Approver approverConfig `json:"approver"`
}

type rule struct {
	tool  string
	match string
	field *string
	re    *regexp.Regexp // search, nil when match is empty
	whole *regexp.Regexp // ^(?:match)$ for field rules
}

type approver struct {
	mode          string // allow, deny, pattern
	defaultAllow  bool
	reason        string
	canonical     bool
	allow, deny   []rule
	compileReason string // non-empty: every call is denied with it
}

type result struct {
	Decision string `json:"decision,omitempty"`
	Reason   string `json:"reason"`
	BadLine  bool   `json:"badLine,omitempty"`
	// The request as Go decoded the line (tool name and input text), for the engine-level comparison.
	Tool  *string `json:"tool,omitempty"`
	Input *string `json:"input,omitempty"`
	Skip  string  `json:"skip,omitempty"`
}

const rejectReason = "tool input is not valid JSON or repeats a key"

// goMinor is the minor version of the running Go (19 for go1.19.8); 99 when unknown (a devel build).
func goMinor() int {
	v := strings.TrimPrefix(runtime.Version(), "go1.")
	if i := strings.IndexAny(v, ".rb"); i >= 0 {
		v = v[:i]
	}
	n, err := strconv.Atoi(v)
	if err != nil {
		return 99
	}
	return n
}

func compileRules(list []ruleConfig) ([]rule, error) {
	out := make([]rule, 0, len(list))
	for _, c := range list {
		r := rule{tool: c.Tool, match: c.Match, field: c.Field}
		if c.Match != "" {
			re, err := regexp.Compile(c.Match)
			if err != nil {
				return nil, err
			}
			r.re = re
			if c.Field != nil {
				r.whole, err = regexp.Compile(`^(?:` + c.Match + `)$`)
				if err != nil {
					return nil, err
				}
			}
		}
		out = append(out, r)
	}
	return out, nil
}

func newApprover(c approverConfig) (*approver, error) {
	a := &approver{reason: c.Reason, canonical: c.Input == "canonical"}
	switch strings.ToLower(strings.TrimSpace(c.Mode)) {
	case "", "allow_all", "allow":
		a.mode = "allow"
		return a, nil
	case "deny_all", "deny":
		a.mode = "deny"
		return a, nil
	case "pattern":
		a.mode = "pattern"
	default:
		return nil, fmt.Errorf("approver: unknown mode %q (want allow_all / deny_all / pattern)", c.Mode)
	}
	switch strings.ToLower(c.Default) {
	case "allow":
		a.defaultAllow = true
	case "", "deny":
	default:
		return nil, fmt.Errorf("approver: unknown default %q", c.Default)
	}
	if a.reason == "" {
		a.reason = "denied by pattern policy"
	}
	var err error
	// The first failing rule is looked for in the allow list first, then the deny list.
	if a.allow, err = compileRules(c.Allow); err != nil {
		a.compileReason = "approver: pattern compile: " + err.Error()
		return a, nil
	}
	if a.deny, err = compileRules(c.Deny); err != nil {
		a.compileReason = "approver: pattern compile: " + err.Error()
	}
	return a, nil
}

// --- canonical JSON (semantics A4) ---

type node struct {
	kind   byte // o a s n l
	keys   []string
	values []*node
	text   string // string value, number literal, or literal
}

// foldKey maps each rune to the smallest member of its simple case-folding orbit.
func foldKey(s string) string {
	var b strings.Builder
	for _, r := range s {
		m := r
		for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
			if f < m {
				m = f
			}
		}
		b.WriteRune(m)
	}
	return b.String()
}

func isJSONSpace(s string) bool {
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case ' ', '\t', '\n', '\r':
		default:
			return false
		}
	}
	return true
}

// parseStrict decodes s as one JSON value with encoding/json's tokenizer (numbers verbatim),
// refusing trailing data and keys repeated under simple case folding at any depth.
func parseStrict(s string) (*node, bool) {
	if isJSONSpace(s) {
		return &node{kind: 'o'}, true
	}
	dec := json.NewDecoder(strings.NewReader(s))
	dec.UseNumber()
	v, ok := readValue(dec)
	if !ok {
		return nil, false
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, false
	}
	return v, true
}

func readValue(dec *json.Decoder) (*node, bool) {
	t, err := dec.Token()
	if err != nil {
		return nil, false
	}
	return readFrom(dec, t)
}

func readFrom(dec *json.Decoder, t json.Token) (*node, bool) {
	switch v := t.(type) {
	case json.Delim:
		switch v {
		case '{':
			n := &node{kind: 'o'}
			seen := map[string]bool{}
			for {
				kt, err := dec.Token()
				if err != nil {
					return nil, false
				}
				if d, ok := kt.(json.Delim); ok && d == '}' {
					return n, true
				}
				k, ok := kt.(string)
				if !ok {
					return nil, false
				}
				f := foldKey(k)
				if seen[f] {
					return nil, false
				}
				seen[f] = true
				val, ok := readValue(dec)
				if !ok {
					return nil, false
				}
				n.keys = append(n.keys, k)
				n.values = append(n.values, val)
			}
		case '[':
			n := &node{kind: 'a'}
			for {
				it, err := dec.Token()
				if err != nil {
					return nil, false
				}
				if d, ok := it.(json.Delim); ok && d == ']' {
					return n, true
				}
				val, ok := readFrom(dec, it)
				if !ok {
					return nil, false
				}
				n.values = append(n.values, val)
			}
		}
		return nil, false
	case string:
		return &node{kind: 's', text: v}, true
	case json.Number:
		return &node{kind: 'n', text: string(v)}, true
	case bool:
		return &node{kind: 'l', text: strconv.FormatBool(v)}, true
	case nil:
		return &node{kind: 'l', text: "null"}, true
	}
	return nil, false
}

func encodeString(b *bytes.Buffer, s string) {
	var out bytes.Buffer
	enc := json.NewEncoder(&out)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s)
	b.Write(bytes.TrimSuffix(out.Bytes(), []byte("\n")))
}

func encode(b *bytes.Buffer, n *node) {
	switch n.kind {
	case 'o':
		idx := make([]int, len(n.keys))
		for i := range idx {
			idx[i] = i
		}
		sort.Slice(idx, func(i, j int) bool { return n.keys[idx[i]] < n.keys[idx[j]] })
		b.WriteByte('{')
		for i, k := range idx {
			if i > 0 {
				b.WriteByte(',')
			}
			encodeString(b, n.keys[k])
			b.WriteByte(':')
			encode(b, n.values[k])
		}
		b.WriteByte('}')
	case 'a':
		b.WriteByte('[')
		for i, v := range n.values {
			if i > 0 {
				b.WriteByte(',')
			}
			encode(b, v)
		}
		b.WriteByte(']')
	case 's':
		encodeString(b, n.text)
	default:
		b.WriteString(n.text)
	}
}

// --- decisions ---

func (a *approver) decide(tool, input string) result {
	switch a.mode {
	case "allow":
		return result{Decision: "allow"}
	case "deny":
		r := a.reason
		if r == "" {
			r = "denied by policy"
		}
		return result{Decision: "deny", Reason: r}
	}
	if a.compileReason != "" {
		return result{Decision: "deny", Reason: a.compileReason}
	}
	text := input
	var doc *node
	docOK := false
	if a.canonical {
		var ok bool
		doc, ok = parseStrict(input)
		if !ok {
			return result{Decision: "deny", Reason: rejectReason}
		}
		var b bytes.Buffer
		encode(&b, doc)
		text = b.String()
		docOK = true
		if goMinor() < 22 && (strings.Contains(text, `\u0008`) || strings.Contains(text, `\u000c`)) {
			return result{Skip: "go1.21 and older write \\b and \\f as \\u0008 and \\u000c"}
		}
	} else {
		doc, docOK = parseStrict(input) // only field rules read it
	}
	matches := func(r rule, deny bool) bool {
		if r.tool != "" && !strings.EqualFold(r.tool, tool) {
			return false
		}
		if r.field == nil {
			return r.re == nil || r.re.MatchString(text)
		}
		if !docOK {
			return deny // unreadable input: deny field rules match, allow field rules do not
		}
		if doc.kind != 'o' {
			return false
		}
		for i, k := range doc.keys {
			if strings.EqualFold(k, *r.field) {
				v := doc.values[i]
				if v.kind != 's' {
					return false
				}
				if r.whole == nil {
					return v.text == ""
				}
				return r.whole.MatchString(v.text)
			}
		}
		return false
	}
	for _, r := range a.deny {
		if matches(r, true) {
			return result{Decision: "deny", Reason: a.reason}
		}
	}
	for _, r := range a.allow {
		if matches(r, false) {
			return result{Decision: "allow"}
		}
	}
	if a.defaultAllow {
		return result{Decision: "allow"}
	}
	return result{Decision: "deny", Reason: a.reason}
}

type envelope struct {
	ToolName *string         `json:"toolName"`
	Input    json.RawMessage `json:"input"`
}

// decideLine reads one request line as Go's encoding/json decodes it into the request struct.
func (a *approver) decideLine(line []byte) result {
	var env envelope
	if err := json.Unmarshal(line, &env); err != nil || env.ToolName == nil {
		return result{BadLine: true}
	}
	input := ""
	if len(env.Input) > 0 {
		if env.Input[0] != '"' {
			return result{Skip: "object-form input"}
		}
		if err := json.Unmarshal(env.Input, &input); err != nil {
			return result{BadLine: true}
		}
	}
	r := a.decide(*env.ToolName, input)
	r.Tool, r.Input = env.ToolName, &input
	return r
}

type caseIn struct {
	Policy string   `json:"policy"`
	Lines  []string `json:"lines"`
}

type caseOut struct {
	Results     []result `json:"results,omitempty"`
	Skip        string   `json:"skip,omitempty"`
	PolicyError string   `json:"policyError,omitempty"`
}

func runCase(c caseIn) caseOut {
	var pf policyFile
	if err := json.Unmarshal([]byte(c.Policy), &pf); err != nil {
		return caseOut{PolicyError: err.Error()}
	}
	if goMinor() < 22 {
		for _, l := range [][]ruleConfig{pf.Approver.Allow, pf.Approver.Deny} {
			for _, r := range l {
				if strings.Contains(r.Match, "(?<") {
					return caseOut{Skip: "(?<name>…) is Go 1.22+"}
				}
			}
		}
	}
	a, err := newApprover(pf.Approver)
	if err != nil {
		return caseOut{PolicyError: err.Error()}
	}
	if goMinor() < 20 && strings.Contains(a.compileReason, "regexp/syntax: internal error") {
		// The backported size limit of Go 1.19 reports `expression too large` as an internal error.
		return caseOut{Skip: "go1.19 reports `expression too large` as an internal error"}
	}
	out := caseOut{Results: make([]result, 0, len(c.Lines))}
	for _, l := range c.Lines {
		line, err := base64.StdEncoding.DecodeString(l)
		if err != nil {
			out.Results = append(out.Results, result{Skip: "bad base64"})
			continue
		}
		out.Results = append(out.Results, a.decideLine(line))
	}
	return out
}

func main() {
	in := bufio.NewReaderSize(os.Stdin, 1<<20)
	out := bufio.NewWriter(os.Stdout)
	defer out.Flush()
	enc := json.NewEncoder(out)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(map[string]string{"go": runtime.Version(), "unicode": unicode.Version})
	for {
		line, err := in.ReadBytes('\n')
		if len(bytes.TrimSpace(line)) > 0 {
			var c caseIn
			if jerr := json.Unmarshal(line, &c); jerr != nil {
				_ = enc.Encode(caseOut{PolicyError: "harness: " + jerr.Error()})
			} else {
				_ = enc.Encode(runCase(c))
			}
		}
		if err != nil {
			break
		}
	}
}
