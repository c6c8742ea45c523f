package auth

import (
	"testing"
	"time"

	"github.com/rs/zerolog"

	"tenger/internal/apperr"
	notifyoutbox "tenger/internal/notify/outbox"
	"tenger/internal/store/embedded"
)

// TestCodesReachTheLocalOutbox wires the real local notify adapter: the
// code a user is sent is the one /dev/outbox shows, and it signs them up.
func TestCodesReachTheLocalOutbox(t *testing.T) {
	st, err := embedded.Open(t.TempDir(), embedded.Options{SweepInterval: -1})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	ob, err := notifyoutbox.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer ob.Close()
	svc := New(Options{Store: st, Notifier: ob, Log: zerolog.Nop(), Password: cheapPasswords})
	m := Meta{IP: "1.2.3.4", Lang: apperr.LangMN}
	wantCode(t, svc.SendEmailCode(ctx, m, "ob@example.com", OpRegister), "")
	wantCode(t, svc.SendSMSCode(ctx, m, "976", "99887766", OpRegister), "")
	list, err := ob.List(ctx)
	if err != nil || len(list) != 2 {
		t.Fatalf("outbox %+v %v", list, err)
	}
	e, s := list[0], list[1]
	if e.To != "ob@example.com" || e.Channel != "email" || e.OperationType != 1 || len(e.Code) != 6 ||
		s.To != "+97699887766" || s.Channel != "sms" || time.Since(s.SentAt) > time.Minute {
		t.Fatalf("outbox entries %+v", list)
	}
	if e.Subject != "Tenger баталгаажуулах код" {
		t.Fatalf("subject not in the caller's language: %q", e.Subject)
	}
	_, err = svc.Register(ctx, m, RegisterInput{Account: Account{Email: "ob@example.com"}, Password: "passw0rd", Code: e.Code})
	wantCode(t, err, "")
}
