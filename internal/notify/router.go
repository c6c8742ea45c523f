package notify

import (
	"context"
	"fmt"
)

// Router sends each message through the sender of its channel, so the AWS
// runtime can combine the SNS (sms) and SES (email) adapters into one Sender.
type Router struct {
	SMS   Sender
	Email Sender
}

var _ Sender = Router{}

// Send implements Sender.
func (r Router) Send(ctx context.Context, m Message) error {
	if err := m.Validate(); err != nil {
		return err
	}
	var s Sender
	switch m.Channel {
	case ChannelSMS:
		s = r.SMS
	case ChannelEmail:
		s = r.Email
	}
	if s == nil {
		return fmt.Errorf("%w: no sender for channel %q", ErrInvalid, m.Channel)
	}
	return s.Send(ctx, m)
}
