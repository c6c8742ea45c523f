// Package notify is the port for SMS and e-mail to users (verification
// codes, security notices). The local binary writes to a durable outbox
// readable at /dev/outbox (notify/outbox); the AWS runtime sends SMS through
// SNS (notify/snsnotify) and e-mail through SES (notify/sesnotify).
//
// Verification codes are secrets: no adapter logs a Message's Code or Text,
// and errors never include them.
package notify

import (
	"context"
	"errors"
	"fmt"
	"strings"
)

// Channels.
const (
	ChannelSMS   = "sms"
	ChannelEmail = "email"
)

// Operation types the web app sends with code requests (spec: smsValid 10
// withdraw, 28 add bank, 11 other; emailValid 17; add-bank and
// trade-password SMS 6).
const (
	OpTradePassword = 6
	OpWithdraw      = 10
	OpOther         = 11
	OpEmail         = 17
	OpAddBank       = 28
)

// ErrInvalid: the message cannot be sent as given.
var ErrInvalid = errors.New("notify: invalid message")

// Message is one SMS or e-mail.
type Message struct {
	// Channel is ChannelSMS or ChannelEmail.
	Channel string
	// To is a phone number in international form (+976...) or an e-mail
	// address.
	To string
	// OperationType says what the code is for (Op* constants).
	OperationType int
	// Code is the verification code, if the message carries one.
	Code string
	// Subject of an e-mail; Render supplies one when empty.
	Subject string
	// Text is the body; Render supplies one from Code when empty.
	Text string
}

// Sender is the port.
type Sender interface {
	// Send delivers (or, locally, records) one message.
	Send(ctx context.Context, m Message) error
}

// Validate checks a message.
func (m Message) Validate() error {
	switch m.Channel {
	case ChannelSMS:
		if !validPhone(m.To) {
			return fmt.Errorf("%w: sms needs a phone number in international form", ErrInvalid)
		}
	case ChannelEmail:
		at := strings.LastIndexByte(m.To, '@')
		if at < 1 || at == len(m.To)-1 || strings.ContainsAny(m.To, " \t\r\n<>,;") || len(m.To) > 254 {
			return fmt.Errorf("%w: email needs an address", ErrInvalid)
		}
	default:
		return fmt.Errorf("%w: channel must be %q or %q", ErrInvalid, ChannelSMS, ChannelEmail)
	}
	if m.Code == "" && m.Text == "" {
		return fmt.Errorf("%w: nothing to send (no code, no text)", ErrInvalid)
	}
	return nil
}

// validPhone accepts "+" and 7..15 digits (E.164).
func validPhone(s string) bool {
	if len(s) < 8 || len(s) > 16 || s[0] != '+' {
		return false
	}
	for _, c := range s[1:] {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// purpose names what a code is for, in the message text.
func purpose(op int) string {
	switch op {
	case OpWithdraw:
		return "withdrawal"
	case OpAddBank:
		return "adding a bank account"
	case OpTradePassword:
		return "your trade password"
	}
	return "verification"
}

// Render returns the subject and text to send: the message's own, or the
// standard wording around its code.
func Render(m Message) (subject, text string) {
	subject, text = m.Subject, m.Text
	if subject == "" {
		subject = "Tenger verification code"
	}
	if text == "" {
		text = fmt.Sprintf("Your Tenger code for %s is %s. It expires in 5 minutes. Never share it with anyone.", purpose(m.OperationType), m.Code)
	}
	return subject, text
}
