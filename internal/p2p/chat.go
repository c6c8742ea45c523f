package p2p

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync/atomic"
	"time"

	"tenger/internal/apperr"
	"tenger/internal/store"
)

// Message is one message of an order's chat.
type Message struct {
	ID string `json:"id"`
	// By is the sender's uid, "system" for the order's own messages or
	// "operator" for support's.
	By string `json:"by"`
	// Text is the message; a system message's text is a key the app
	// translates (created, paid, released, cancelled, expired, appealed,
	// appeal_cancelled, decided_release, decided_refund).
	Text  string `json:"content"`
	Image string `json:"image,omitempty" doc:"an upload id"`
	At    int64  `json:"ctime"`
}

// Senders other than the two sides.
const (
	BySystem   = "system"
	ByOperator = "operator"
)

// ChatOpenAfterDone is how long after an order ends its chat still takes messages.
const ChatOpenAfterDone = 24 * time.Hour

// lastStamp is the last message stamp this process gave out.
var lastStamp atomic.Int64

// messageSK is a message's sort key: its time in microseconds, strictly
// after the previous one this process stamped (a transition's system
// message follows the message sent just before it in the same
// millisecond), then a random suffix for messages of other processes.
func messageSK(at time.Time) string {
	us := at.UnixMicro()
	for {
		last := lastStamp.Load()
		if us <= last {
			us = last + 1
		}
		if lastStamp.CompareAndSwap(last, us) {
			break
		}
	}
	return fmt.Sprintf("M#%016d#%s", us, randHex(3))
}

func systemMessage(orderID string, now time.Time, key string) store.Op {
	sk := messageSK(now)
	return store.PutOp(store.Item{store.AttrPK: orderKey(orderID).PK, store.AttrSK: sk, "id": sk[2:], "by": BySystem,
		"text": key, "at": ms(now)}, store.ItemNotExists())
}

// Send is chatMsg/message: a side of the order writes text, an image (an
// upload id they own), or both.
func (s *Service) Send(ctx context.Context, uid, id, text, image string) (Message, error) {
	o, err := s.Order(ctx, uid, id)
	if err != nil {
		return Message{}, err
	}
	return s.post(ctx, o, uid, text, image)
}

// OperatorSend writes in an order's chat as support (the appeal's operator).
func (s *Service) OperatorSend(ctx context.Context, id, text string) (Message, error) {
	o, err := s.readOrder(ctx, id)
	if err != nil {
		return Message{}, err
	}
	return s.post(ctx, o, ByOperator, text, "")
}

func (s *Service) post(ctx context.Context, o Order, by, text, image string) (Message, error) {
	text, ok := cleanText(text, MaxChatLen)
	if !ok {
		return Message{}, apperr.New(apperr.CodeP2PChatText, "text")
	}
	if text == "" && image == "" {
		return Message{}, apperr.New(apperr.CodeP2PChatText, "empty")
	}
	now := s.o.Now()
	if Finished(o.Status) && now.Sub(time.UnixMilli(o.DoneAt)) > ChatOpenAfterDone {
		return Message{}, apperr.New(apperr.CodeP2PChatClosed)
	}
	if image != "" {
		if s.o.Uploads == nil || len(image) > 128 {
			return Message{}, apperr.New(apperr.CodeP2PChatText, "image")
		}
		if err := s.o.Uploads.Owned(ctx, by, []string{image}); err != nil {
			return Message{}, err
		}
	}
	sk := messageSK(now)
	m := Message{ID: sk[2:], By: by, Text: text, Image: image, At: ms(now)}
	it := store.Item{store.AttrPK: orderKey(o.ID).PK, store.AttrSK: sk, "id": m.ID, "by": by, "text": text, "at": m.At}
	if image != "" {
		it["image"] = image
	}
	err := s.o.Store.Transact(ctx, []store.Op{
		store.UpdateOp(chatKey(o.ID), store.NewUpdate().AddInt("n", 1),
			store.Or(store.NotExists("n"), store.Compare("n", store.CmpLt, int64(MaxChatMessages)))),
		store.PutOp(it, store.ItemNotExists()),
	})
	if errors.Is(err, store.ErrConditionFailed) {
		return Message{}, apperr.New(apperr.CodeP2PChatClosed)
	}
	if err != nil {
		return Message{}, internal(err)
	}
	if s.o.Notify != nil {
		s.o.Notify.ChatMessage(ctx, o, m)
	}
	return m, nil
}

// Messages lists an order's chat for one of its sides, oldest first,
// those after the message id after (empty for all).
func (s *Service) Messages(ctx context.Context, uid, id, after string) ([]Message, error) {
	if _, err := s.Order(ctx, uid, id); err != nil {
		return nil, err
	}
	return s.messages(ctx, id, after)
}

// OperatorMessages lists any order's chat (an appeal's evidence).
func (s *Service) OperatorMessages(ctx context.Context, id string) ([]Message, error) {
	if _, err := s.readOrder(ctx, id); err != nil {
		return nil, err
	}
	return s.messages(ctx, id, "")
}

func (s *Service) messages(ctx context.Context, id, after string) ([]Message, error) {
	q := store.Query{PK: orderKey(id).PK, SK: store.SKPrefixed("M#")}
	if after != "" {
		q.SK = store.SKRange("M#"+after+"\x00", "M#\xff")
	}
	out := []Message{}
	err := store.EachLive(ctx, s.o.Store, q, s.o.Now(), func(it store.Item) {
		out = append(out, Message{ID: it.Str("id"), By: it.Str("by"), Text: it.Str("text"), Image: it.Str("image"), At: it.Int("at")})
	})
	return out, internal(err)
}

// ChatImageOwner answers whose upload an image of an order is, for one of
// the order's sides who wants to see it: an image sent in the order's
// chat, or evidence of its appeal. Anything else is not found, so upload
// ids of other orders or users reveal nothing.
func (s *Service) ChatImageOwner(ctx context.Context, uid, orderID, image string) (string, error) {
	o, err := s.Order(ctx, uid, orderID)
	if err != nil {
		return "", err
	}
	if image == "" || len(image) > 128 {
		return "", apperr.New(apperr.CodeUploadNotFound)
	}
	if a := o.Appeal; a != nil && slices.Contains(a.Evidence, image) && (a.By == o.Buyer || a.By == o.Seller) {
		return a.By, nil
	}
	msgs, err := s.messages(ctx, o.ID, "")
	if err != nil {
		return "", err
	}
	for _, m := range msgs {
		if m.Image == image && (m.By == o.Buyer || m.By == o.Seller) {
			return m.By, nil
		}
	}
	return "", apperr.New(apperr.CodeUploadNotFound)
}
