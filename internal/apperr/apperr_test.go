package apperr

import (
	"fmt"
	"regexp"
	"strings"
	"testing"
)

// A caller's text echoed in a message loses control and format characters
// (NUL, line breaks, bidirectional overrides) and is cut to maxEchoLen.
func TestMessageEchoesPrintableText(t *testing.T) {
	got := New(CodeTradeSymbolUnknown, "тест😀\u202e\u0000x\ny\xff").Message(LangEN)
	if strings.ContainsAny(got, "\u202e\u0000\n\xff") || !strings.Contains(got, "тест😀xy") {
		t.Fatalf("message %q", got)
	}
	long := New(CodeTradeSymbolUnknown, strings.Repeat("ж", 100)).Message(LangMN)
	if !strings.Contains(long, strings.Repeat("ж", maxEchoLen)+"…") || strings.Contains(long, strings.Repeat("ж", maxEchoLen+1)) {
		t.Fatalf("long message %q", long)
	}
	if got := New(CodeTradeMinNotional, "5000").Message(LangEN); !strings.Contains(got, "5000") {
		t.Fatalf("plain argument %q", got)
	}
}

// Each language's template uses the same arguments: a Mongolian sentence
// may name them in another order, with explicit indexes (%[2]s), but never
// prints a missing one or drops one, except where the spec fixes the
// Mongolian text (spec §8: the withdraw minimum and maximum messages).
func TestTemplatesUseTheSameArguments(t *testing.T) {
	specFixedMN := map[string]bool{CodeAmountBelowMin: true, CodeAmountAboveMax: true}
	verb := regexp.MustCompile(`%(\[\d+\])?[sd]`)
	for _, e := range Entries() {
		if e.MN == "" {
			continue
		}
		var args []any
		for i, v := range verb.FindAllString(e.EN, -1) {
			if strings.HasSuffix(v, "d") {
				args = append(args, 7000+i)
			} else {
				args = append(args, fmt.Sprintf("ARG%d", i+1))
			}
		}
		err := &Error{Entry: e, Args: args}
		en, mn := err.Message(LangEN), err.Message(LangMN)
		if strings.Contains(en+mn, "%!") {
			t.Errorf("%s: bad verbs: %q / %q", e.Code, en, mn)
		}
		for _, a := range args {
			s := fmt.Sprint(a)
			if strings.Count(en, s) != strings.Count(mn, s) && !specFixedMN[e.Code] {
				t.Errorf("%s: %s appears differently: %q / %q", e.Code, s, en, mn)
			}
		}
	}
}

// 13011 names what is left, then the limit, in both languages ("50 USDT
// left of 100000" is "100000-аас 50 үлдсэн" in Mongolian).
func TestDailyLimitMessageOrder(t *testing.T) {
	e := New(CodeDailyLimit, "50.00", "100000.00")
	if got := e.Message(LangEN); got != "The 24-hour withdrawal limit would be exceeded: 50.00 USDT left of 100000.00 USDT" {
		t.Fatalf("en %q", got)
	}
	if got := e.Message(LangMN); got != "24 цагийн зарлагын хязгаар хэтэрнэ: 100000.00 USDT-ээс 50.00 USDT үлдсэн" {
		t.Fatalf("mn %q", got)
	}
}
