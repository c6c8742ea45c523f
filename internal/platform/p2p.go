package platform

import (
	"context"
	"strings"
	"sync"
	"time"

	"github.com/shopspring/decimal"

	"tenger/internal/httpapi"
	"tenger/internal/p2p"
	"tenger/internal/p2p/paymethod"
	"tenger/internal/push"
	"tenger/internal/store"
	"tenger/internal/upload"
	"tenger/internal/wallet"
	"tenger/internal/workflow"
)

// p2pState holds the P2P services of a Deps, built once.
type p2pState struct {
	once    sync.Once
	svc     *p2p.Service
	methods *paymethod.Service
}

// P2P is peer-to-peer trading on the users' OTC accounts (store ledger):
// ads, orders with escrow, appeals and the order chat, pushed to both
// sides on their private WebSocket channels. Built once per Deps.
func (d *Deps) P2P() *p2p.Service {
	d.buildP2P()
	return d.p2p.svc
}

// PayMethods are the users' P2P payment methods. Built once per Deps.
func (d *Deps) PayMethods() *paymethod.Service {
	d.buildP2P()
	return d.p2p.methods
}

func (d *Deps) buildP2P() {
	d.p2p.once.Do(func() {
		d.p2p.methods = paymethod.New(paymethod.Options{Store: d.Store, Now: d.Now,
			Log: d.Log.With().Str("service", "paymethod").Logger(),
			Banks: func() []paymethod.Bank {
				var out []paymethod.Bank
				for _, b := range wallet.Banks() {
					out = append(out, paymethod.Bank{Code: b.Payment, Name: b.Title, NameMN: b.TitleMN})
				}
				return out
			},
			HolderName: d.verifiedName,
		})
		var svc *p2p.Service
		svc = p2p.New(p2p.Options{Store: d.Store, Ledger: d.Ledger(), Profiles: p2pProfiles{d}, Methods: p2pMethods{d.p2p.methods},
			Fund: p2pFund{d}, Rates: p2pRates{d}, Uploads: d.p2pUploads(), Notify: p2pPush{d},
			Start: func(id string, input any, now, at time.Time) (store.Op, error) {
				return workflow.StartOpAt(svc.TimeoutDefinition(), id, input, now, at)
			},
			Now: d.Now, Log: d.Log.With().Str("service", "p2p").Logger()})
		d.p2p.svc = svc
	})
}

// verifiedName is the user's name as identity verification recorded it
// ("" before it), which P2P payment accounts must carry.
func (d *Deps) verifiedName(ctx context.Context, uid string) (string, error) {
	u, err := d.Auth().User(ctx, uid)
	if err != nil {
		return "", err
	}
	if n := strings.TrimSpace(u.RealName); n != "" {
		return n, nil
	}
	return strings.TrimSpace(strings.TrimSpace(u.FirstName) + " " + strings.TrimSpace(u.LastName)), nil
}

// p2pArea are the routers of P2P (the OTC service, /fe-otc-api, and the
// OTC order lists of /fe-ex-api); with Config.Dev also the operator's
// merchant and appeal decisions (/dev/p2p/*), which the CLI cannot give
// while tenger serve holds the store.
func (d *Deps) p2pArea(sessions httpapi.SessionResolver) []*httpapi.Router {
	out := []*httpapi.Router{httpapi.NewP2PRouter(d.P2P(), d.PayMethods(), d.Uploads(), d.APIOptions("p2p", sessions))}
	if d.Config.Dev {
		out = append(out, httpapi.NewDevP2PRouter(d.P2P(), d.APIOptions("dev-p2p", sessions)))
	}
	return out
}

// P2PArea returns the routers of the p2p function (and of tenger serve).
func (d *Deps) P2PArea() []*httpapi.Router {
	return d.p2pArea(httpapi.AuthSessions(d.Auth()))
}

// p2pProfiles reads nicknames and verification from the user items.
type p2pProfiles struct{ d *Deps }

func (p p2pProfiles) P2PProfile(ctx context.Context, uid string) (p2p.Profile, error) {
	u, err := p.d.Auth().User(ctx, uid)
	if err != nil {
		return p2p.Profile{}, err
	}
	nick := u.NickName
	if nick == "" {
		// A trader without a nickname shows as a masked id, never their e-mail or phone.
		nick = "User-" + uid[max(0, len(uid)-4):]
	}
	return p2p.Profile{Nick: nick, KYCVerified: u.KYCStatus == 2}, nil
}

// p2pMethods gives P2P the users' open payment methods.
type p2pMethods struct{ svc *paymethod.Service }

func (m p2pMethods) Methods(ctx context.Context, uid string, ids []string) ([]p2p.Method, error) {
	list, err := m.svc.Get(ctx, uid, ids)
	if err != nil {
		return nil, err
	}
	out := make([]p2p.Method, len(list))
	for i, x := range list {
		out[i] = p2p.Method{ID: x.ID, Kind: x.Kind, Title: x.Title, UserName: x.UserName, Account: x.Account, Bank: x.Bank}
	}
	return out, nil
}

// p2pFund checks the wallet's trade password (the P2P fund password).
type p2pFund struct{ d *Deps }

func (f p2pFund) FundPasswordSet(ctx context.Context, uid string) (bool, error) {
	st, err := f.d.Wallet().CapitalStatus(ctx, uid)
	return st.IsSet == 1, err
}

func (f p2pFund) CheckFundPassword(ctx context.Context, uid, pw string) (bool, error) {
	return f.d.Wallet().CheckCapitalPassword(ctx, uid, pw)
}

// p2pRates prices floating ads from the wallet's rate table (the reference
// prices in the fiat of the mn_MN table, MNT).
type p2pRates struct{ d *Deps }

func (r p2pRates) Rate(ctx context.Context, coin, fiat string) (decimal.Decimal, bool, error) {
	if fiat != "MNT" {
		return decimal.Zero, false, nil
	}
	tables, err := r.d.Wallet().Rates(ctx)
	if err != nil {
		return decimal.Zero, false, err
	}
	v, ok := tables["mn_MN"][coin]
	if !ok {
		return decimal.Zero, false, nil
	}
	p, err := decimal.NewFromString(v)
	return p, err == nil && p.IsPositive(), nil
}

// p2pUploads checks that chat images and appeal evidence are the
// sender's uploads: only their records are read (the store).
func (d *Deps) p2pUploads() p2p.Uploads {
	if u := d.Uploads(); u != nil {
		return p2pOwned{u}
	}
	return p2pOwned{upload.New(upload.Options{Store: d.Store, Now: d.Now, Log: d.Log})}
}

type p2pOwned struct{ svc *upload.Service }

func (o p2pOwned) Owned(ctx context.Context, uid string, ids []string) error {
	for _, id := range ids {
		if _, err := o.svc.Owned(ctx, uid, id); err != nil {
			return err
		}
	}
	return nil
}

// Private channels of P2P: an order's changes and its chat, to both sides.
const (
	ChannelP2POrders = "user_p2p_orders"
	ChannelP2PChat   = "user_p2p_chat"
)

// p2pPush tells both sides of an order over their private channels.
type p2pPush struct{ d *Deps }

func (p p2pPush) OrderChanged(ctx context.Context, o p2p.Order) {
	p.send(ctx, o, ChannelP2POrders, map[string]any{"id": o.ID, "status": o.Status})
}

func (p p2pPush) ChatMessage(ctx context.Context, o p2p.Order, m p2p.Message) {
	p.send(ctx, o, ChannelP2PChat, map[string]any{"orderId": o.ID, "message": m})
}

func (p p2pPush) send(ctx context.Context, o p2p.Order, channel string, data any) {
	if p.d.Push == nil {
		return
	}
	msg, err := push.Data(channel, p.d.Now(), data)
	if err != nil {
		return
	}
	for _, uid := range []string{o.Buyer, o.Seller} {
		if _, err := p.d.Push.PublishUser(ctx, uid, msg); err != nil {
			p.d.Log.Warn().Err(err).Str("order", o.ID).Msg("p2p push")
		}
	}
}
