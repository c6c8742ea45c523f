// Package sesnotify is the AWS e-mail adapter of the notify port (SES v2
// SendEmail, simple content, UTF-8).
package sesnotify

import (
	"context"
	"fmt"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/sesv2"
	"github.com/aws/aws-sdk-go-v2/service/sesv2/types"

	"tenger/internal/notify"
)

// API is the part of the SES v2 client the adapter uses (*sesv2.Client has
// it).
type API interface {
	SendEmail(ctx context.Context, in *sesv2.SendEmailInput, optFns ...func(*sesv2.Options)) (*sesv2.SendEmailOutput, error)
}

// Options configure the adapter.
type Options struct {
	// From is the verified sender address, e.g. "Tenger <no-reply@tenger.mn>".
	From string
	// ConfigurationSet, when set, routes bounces and complaints to its
	// event destinations.
	ConfigurationSet string
}

// Email sends e-mail through SES.
type Email struct {
	api  API
	opts Options
}

var _ notify.Sender = (*Email)(nil)

// New returns the adapter.
func New(api API, opts Options) *Email { return &Email{api: api, opts: opts} }

// Send implements notify.Sender for ChannelEmail messages.
func (e *Email) Send(ctx context.Context, m notify.Message) error {
	if err := m.Validate(); err != nil {
		return err
	}
	if m.Channel != notify.ChannelEmail {
		return fmt.Errorf("%w: sesnotify sends email only", notify.ErrInvalid)
	}
	if e.opts.From == "" {
		return fmt.Errorf("%w: no sender address configured", notify.ErrInvalid)
	}
	subject, text := notify.Render(m)
	in := &sesv2.SendEmailInput{
		FromEmailAddress: aws.String(e.opts.From),
		Destination:      &types.Destination{ToAddresses: []string{m.To}},
		Content: &types.EmailContent{Simple: &types.Message{
			Subject: &types.Content{Data: aws.String(subject), Charset: aws.String("UTF-8")},
			Body:    &types.Body{Text: &types.Content{Data: aws.String(text), Charset: aws.String("UTF-8")}},
		}},
	}
	if e.opts.ConfigurationSet != "" {
		in.ConfigurationSetName = aws.String(e.opts.ConfigurationSet)
	}
	if _, err := e.api.SendEmail(ctx, in); err != nil {
		return fmt.Errorf("notify: ses send: %w", err)
	}
	return nil
}
