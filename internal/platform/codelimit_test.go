package platform

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"tenger/internal/auth"
	"tenger/internal/markets"
	"tenger/internal/notify/outbox"
	"tenger/internal/store/embedded"
)

// Config.CodeIPSends replaces the codes one address may have sent an hour
// (the browser suite's server raises it); 0 keeps the default.
func TestCodeIPSends(t *testing.T) {
	for _, c := range []struct{ set, want int }{{0, auth.DefaultLimits.CodeIPSends}, {3, 3}} {
		st, err := embedded.Open(t.TempDir(), embedded.Options{SweepInterval: -1})
		if err != nil {
			t.Fatal(err)
		}
		box, err := outbox.Open(t.TempDir())
		if err != nil {
			t.Fatal(err)
		}
		d := &Deps{Store: st, Notify: box, Markets: markets.Defaults(), Log: zerolog.Nop(), Now: time.Now,
			Config: Config{CodeIPSends: c.set}}
		m := auth.Meta{IP: "203.0.113.9"}
		sent := 0
		for i := 0; i <= c.want; i++ {
			err := d.Auth().SendEmailCode(context.Background(), m, fmt.Sprintf("u%d@example.com", i), auth.OpRegister)
			if err != nil {
				if !strings.Contains(err.Error(), "10004") {
					t.Fatal(err)
				}
				break
			}
			sent++
		}
		if sent != c.want {
			t.Errorf("CodeIPSends %d: %d codes sent from one address, want %d", c.set, sent, c.want)
		}
		_ = st.Close()
	}
}
