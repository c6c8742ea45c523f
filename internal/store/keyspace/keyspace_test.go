package keyspace

import (
	"slices"
	"strings"
	"testing"

	"tenger/internal/store"
)

func TestPrefix(t *testing.T) {
	for pk, want := range map[string]string{
		"USER#42": "USER#", "md#k#btcusdt#1min": "md#", "ENGLEASE": "ENGLEASE", "PHONE#+976#88001122": "PHONE#",
		"BWSCONN#abc=": "BWSCONN#", "refprice": "refprice", "": "",
	} {
		if got := Prefix(pk); got != want {
			t.Errorf("Prefix(%q) = %q, want %q", pk, got, want)
		}
	}
}

// like is IAM's StringLike for the patterns LeadingKeys makes: "*"
// matches any run of characters, nothing else is special.
func like(pattern, s string) bool {
	if before, ok := strings.CutSuffix(pattern, "*"); ok {
		return strings.HasPrefix(s, before)
	}
	return s == pattern
}

// TestLeadingKeysMatchThePrefixes: a key's pattern matches exactly the
// partition keys whose prefix is declared, so the IAM condition and the
// handler tests' guard (Grant.Reading) agree.
func TestLeadingKeysMatchThePrefixes(t *testing.T) {
	g := Grant{Reads: []string{"USER#", "ENGLEASE"}}
	pats := LeadingKeys(g.Prefixes())
	if !slices.Equal(pats, []string{"USER#*", "ENGLEASE"}) {
		t.Fatalf("LeadingKeys = %v", pats)
	}
	for _, pk := range []string{"USER#1", "USER#", "USER#a#b", "ENGLEASE", "ENGLEASEX", "USERS#1", "USER", "EMAIL#1", "ENGLEASE#1"} {
		matched := slices.ContainsFunc(pats, func(p string) bool { return like(p, pk) })
		if matched != g.Reading(pk) {
			t.Errorf("%q: the condition matches %v, the declaration allows %v", pk, matched, g.Reading(pk))
		}
	}
}

// TestDeclarations: every declaration is well formed: a known, unique
// name; prefixes that are "<kind>#" or a whole key without "#", free of
// IAM's wildcards (StringLike's "*" and "?"), each declared once; writes
// and reads apart; known index names.
func TestDeclarations(t *testing.T) {
	names := map[string]bool{}
	for _, g := range All() {
		if g.Name == "" || names[g.Name] {
			t.Errorf("declaration name %q empty or repeated", g.Name)
		}
		names[g.Name] = true
		seen := map[string]bool{}
		for _, p := range g.Prefixes() {
			if p == "" || strings.ContainsAny(p, "*?") || (strings.Contains(p, "#") && strings.Index(p, "#") != len(p)-1) {
				t.Errorf("%s: prefix %q is not a key's prefix", g.Name, p)
			}
			if Prefix(p) != p {
				t.Errorf("%s: %q is not its own prefix", g.Name, p)
			}
			if seen[p] {
				t.Errorf("%s: %q declared twice (a written prefix is read too)", g.Name, p)
			}
			seen[p] = true
		}
		for _, ix := range g.Indexes {
			if ix != store.IndexGSI1 && ix != store.IndexGSI2 {
				t.Errorf("%s: unknown index %q", g.Name, ix)
			}
		}
		if len(g.Prefixes()) == 0 && len(g.Indexes) == 0 && !g.Feed {
			t.Errorf("%s declares nothing", g.Name)
		}
	}
	if !names[EngineTask] {
		t.Errorf("no declaration for %s", EngineTask)
	}
	if _, ok := Of("nobody"); ok {
		t.Error("Of found an undeclared grantee")
	}
}
