package platform

import (
	"context"
	"sync"

	"tenger/internal/account"
	"tenger/internal/httpapi"
	"tenger/internal/support"
	"tenger/internal/upload"
)

// accountState holds the account and support services of a Deps, built
// once.
type accountState struct {
	once    sync.Once
	account *account.Service
	support *support.Service
}

// Account is the account cancellation service: it reads balances and what
// is on its way from the store (no engine needed: the profile function
// answers it) and revokes API keys through APIKeys. Built once per Deps.
func (d *Deps) Account() *account.Service {
	d.buildAccount()
	return d.account.account
}

// Support is the help desk: tickets in the store, attachments checked by
// the upload service when one is wired (supportAttachments), owners told
// of answers through the notifier. Built once per Deps.
func (d *Deps) Support() *support.Service {
	d.buildAccount()
	return d.account.support
}

func (d *Deps) buildAccount() {
	d.account.once.Do(func() {
		log := d.Log.With().Str("service", "account").Logger()
		var keys account.Keys
		if k, err := d.APIKeys(); err != nil {
			// Without the key service a cancellation is refused (it must
			// not leave keys that still trade); the check still answers.
			log.Error().Err(err).Msg("API keys unavailable: cancellations are refused")
		} else {
			keys = k
		}
		d.account.account = account.New(account.Options{Store: d.Store, Auth: d.Auth(), Keys: keys, Now: d.Now, Log: log})
		d.account.support = support.New(support.Options{Store: d.Store, Attachments: d.supportAttachments(),
			Users: d.Auth(), Notify: d.Notify, Now: d.Now, Log: d.Log.With().Str("service", "support").Logger()})
	})
}

// accountArea are the routers of the cancellation and the support
// tickets, in the profile area; with Config.Dev also the operator's
// answer and close of a ticket (/dev/support/*), which the CLI cannot give
// while tenger serve holds the store.
func (d *Deps) accountArea(sessions httpapi.SessionResolver) []*httpapi.Router {
	out := []*httpapi.Router{
		httpapi.NewAccountRouter(d.Account(), d.APIOptions("profile", sessions)),
		httpapi.NewSupportRouter(d.Support(), d.APIOptions("profile", sessions)),
	}
	if d.Config.Dev {
		out = append(out, httpapi.NewDevSupportRouter(d.Support(), d.APIOptions("dev-support", sessions)))
	}
	return out
}

// supportAttachments checks that a ticket's attachments are the user's
// own images (common/upload_img: the upload service's PurposeImage); nil,
// so attachments are refused, where the deployment stores no uploads.
func (d *Deps) supportAttachments() support.Attachments {
	if u := d.Uploads(); u != nil {
		return uploadAttachments{svc: u}
	}
	return nil
}

// uploadAttachments is support.Attachments on the upload service.
type uploadAttachments struct{ svc *upload.Service }

// CheckOwned implements support.Attachments: each id must be one of uid's
// image uploads (the upload service answers CodeUploadNotFound for any
// other, whoever owns it).
func (a uploadAttachments) CheckOwned(ctx context.Context, uid string, ids []string) error {
	for _, id := range ids {
		if _, err := a.svc.Owned(ctx, uid, id, upload.PurposeImage); err != nil {
			return err
		}
	}
	return nil
}
