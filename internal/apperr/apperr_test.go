package apperr

import (
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
