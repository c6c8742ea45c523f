package content

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"testing"
	"unicode"
)

// TestRealTextsAreTranslated checks the texts compiled into the binary: they
// load, only en-US and mn-MN exist, every page exists in both with the same
// keys at every level, and the Mongolian texts are real Mongolian rather
// than copies of the English ones.
func TestRealTextsAreTranslated(t *testing.T) {
	files, err := readTexts(Texts())
	if err != nil {
		t.Fatalf("the texts do not load: %v", err)
	}
	byLocale := map[string]map[string]any{}
	for _, f := range files {
		if f.locale != LocaleEnglish && f.locale != LocaleMongolian {
			t.Errorf("unexpected locale directory %s (page %s)", f.locale, f.id)
			continue
		}
		var v any
		if err := json.Unmarshal(f.canonical, &v); err != nil {
			t.Fatal(err)
		}
		if byLocale[f.locale] == nil {
			byLocale[f.locale] = map[string]any{}
		}
		byLocale[f.locale][f.id] = v
	}
	en, mn := byLocale[LocaleEnglish], byLocale[LocaleMongolian]
	if len(en) == 0 {
		t.Fatal("no en-US texts")
	}
	for _, id := range sortedKeys(en) {
		if _, ok := mn[id]; !ok {
			t.Errorf("page %s exists in en-US but not in mn-MN", id)
		}
	}
	for _, id := range sortedKeys(mn) {
		if _, ok := en[id]; !ok {
			t.Errorf("page %s exists in mn-MN but not in en-US", id)
		}
	}

	var total, identical, cyrillic int
	for _, id := range sortedKeys(en) {
		m, ok := mn[id]
		if !ok {
			continue
		}
		for _, d := range shapeDiff(id, en[id], m) {
			t.Errorf("keys differ: %s", d)
		}
		var pageTotal, pageSame int
		var same []string
		eachPair(id, en[id], m, func(path, e, mv string) {
			if !hasLetter(e) {
				return // numbers, placeholders and symbols may stay as they are
			}
			pageTotal++
			if e == mv {
				pageSame++
				same = append(same, path)
			}
			if hasCyrillic(mv) {
				cyrillic++
			}
		})
		total += pageTotal
		identical += pageSame
		if pageTotal >= 5 && pageSame*2 > pageTotal {
			t.Errorf("page %s: %d of %d mn-MN texts are copies of en-US: %v", id, pageSame, pageTotal, same)
		}
	}
	if total == 0 {
		t.Fatal("no text values compared")
	}
	if identical*5 > total {
		t.Errorf("%d of %d mn-MN texts are identical to en-US (at most 20%% may be, for names like Google or USDT)", identical, total)
	}
	if cyrillic*2 < total {
		t.Errorf("only %d of %d mn-MN texts contain Cyrillic letters", cyrillic, total)
	}
	t.Logf("%d pages, %d texts, %d identical in both locales", len(en), total, identical)
}

// shapeDiff lists the paths where a and b differ in keys or kinds.
func shapeDiff(path string, a, b any) []string {
	switch av := a.(type) {
	case map[string]any:
		bv, ok := b.(map[string]any)
		if !ok {
			return []string{fmt.Sprintf("%s is an object in en-US but %T in mn-MN", path, b)}
		}
		var out []string
		for _, k := range sortedKeys(av) {
			if _, ok := bv[k]; !ok {
				out = append(out, fmt.Sprintf("%s.%s is missing in mn-MN", path, k))
				continue
			}
			out = append(out, shapeDiff(path+"."+k, av[k], bv[k])...)
		}
		for _, k := range sortedKeys(bv) {
			if _, ok := av[k]; !ok {
				out = append(out, fmt.Sprintf("%s.%s is missing in en-US", path, k))
			}
		}
		return out
	case []any:
		bv, ok := b.([]any)
		if !ok || len(bv) != len(av) {
			return []string{fmt.Sprintf("%s: lists differ in kind or length", path)}
		}
		var out []string
		for i := range av {
			out = append(out, shapeDiff(fmt.Sprintf("%s[%d]", path, i), av[i], bv[i])...)
		}
		return out
	}
	if fmt.Sprintf("%T", a) != fmt.Sprintf("%T", b) {
		return []string{fmt.Sprintf("%s is %T in en-US but %T in mn-MN", path, a, b)}
	}
	return nil
}

// eachPair calls fn for every string leaf present in both trees.
func eachPair(path string, a, b any, fn func(path, en, mn string)) {
	switch av := a.(type) {
	case map[string]any:
		bv, _ := b.(map[string]any)
		for k, v := range av {
			if w, ok := bv[k]; ok {
				eachPair(path+"."+k, v, w, fn)
			}
		}
	case []any:
		bv, _ := b.([]any)
		for i := range av {
			if i < len(bv) {
				eachPair(fmt.Sprintf("%s[%d]", path, i), av[i], bv[i], fn)
			}
		}
	case string:
		if bs, ok := b.(string); ok {
			fn(path, av, bs)
		}
	}
}

func hasLetter(s string) bool {
	// Placeholders such as {seconds} or {{count}} are not text.
	for {
		i := strings.IndexByte(s, '{')
		j := strings.IndexByte(s, '}')
		if i < 0 || j < i {
			break
		}
		s = s[:i] + s[j+1:]
	}
	return strings.IndexFunc(s, unicode.IsLetter) >= 0
}

func hasCyrillic(s string) bool {
	return strings.IndexFunc(s, func(r rune) bool { return unicode.Is(unicode.Cyrillic, r) }) >= 0
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

func TestShapeDiff(t *testing.T) {
	en := map[string]any{"a": "x", "b": map[string]any{"c": "y", "d": "z"}, "l": []any{"1", "2"}}
	mn := map[string]any{"a": "х", "b": map[string]any{"c": "ү", "e": "з"}, "l": []any{"1"}}
	got := strings.Join(shapeDiff("p", en, mn), "; ")
	want := "p.b.d is missing in mn-MN; p.b.e is missing in en-US; p.l: lists differ in kind or length"
	if got != want {
		t.Fatalf("shapeDiff = %q, want %q", got, want)
	}
	if d := shapeDiff("p", map[string]any{"a": "x"}, map[string]any{"a": map[string]any{}}); len(d) != 1 {
		t.Fatalf("kind change not reported: %v", d)
	}
	if !hasLetter("Resend in {seconds}s") || hasLetter("{count} / {{total}}") || hasLetter("6") {
		t.Fatal("hasLetter")
	}
}
