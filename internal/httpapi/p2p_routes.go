package httpapi

import (
	"net/http"
	"regexp"
	"strings"

	"github.com/shopspring/decimal"

	"tenger/internal/apperr"
	"tenger/internal/p2p"
	"tenger/internal/p2p/paymethod"
	"tenger/internal/upload"
)

// P2P trading: the OTC service (spec §7, base /fe-otc-api) and the OTC
// order lists of /fe-ex-api. The p2p function serves them in AWS.

// decimalText is a decimal field sent as a string or a number: digits with
// at most one point, not negative.
var decimalText = regexp.MustCompile(`^[0-9]{1,20}(\.[0-9]{1,18})?$`)

// decField parses an optional decimal field (zero when empty).
func decField(name string, v FlexString) (decimal.Decimal, error) {
	s := strings.TrimSpace(string(v))
	if s == "" {
		return decimal.Zero, nil
	}
	if !decimalText.MatchString(s) {
		return decimal.Zero, apperr.Param(name)
	}
	return decimal.RequireFromString(s), nil
}

// P2PIDReq names an ad or an order.
type P2PIDReq struct {
	ID string `json:"id" v:"required" doc:"the ad's or order's id (19 digits)"`
}

// P2PPageReq pages a list.
type P2PPageReq struct {
	Page     FlexInt `json:"page" doc:"1-based, default 1"`
	PageSize FlexInt `json:"pageSize" doc:"1-50, default 20"`
}

// Validate checks the paging.
func (r *P2PPageReq) Validate() error { return checkPaging(r.Page, r.PageSize, 50) }

// P2PSearchReq is otc/search.
type P2PSearchReq struct {
	Side       string     `json:"side" v:"required" doc:"the taker's: BUY lists SELL ads (cheapest first), SELL lists BUY ads"`
	CoinSymbol string     `json:"coinSymbol" v:"required"`
	PaySymbol  string     `json:"paySymbol" doc:"fiat, default MNT"`
	Amount     FlexString `json:"amount" doc:"fiat amount the ad's limits must admit"`
	Payment    string     `json:"payment" doc:"payment kind the ad must accept (bank, qpay, socialpay)"`
	P2PPageReq
}

// P2PList is a page of ads or orders.
type P2PList[T any] struct {
	Count int `json:"count"`
	List  []T `json:"list"`
}

// P2POrderList is the spec's order list shape (data.orderList, data.count).
type P2POrderList struct {
	Count     int         `json:"count"`
	OrderList []p2p.Order `json:"orderList"`
}

// P2PAdReq is wanted_save.
type P2PAdReq struct {
	ID          string     `json:"id" doc:"empty for a new ad"`
	Side        string     `json:"side" v:"required" doc:"the merchant's: SELL or BUY"`
	CoinSymbol  string     `json:"coinSymbol" v:"required"`
	PaySymbol   string     `json:"paySymbol" doc:"default MNT"`
	PriceType   string     `json:"priceType" v:"required" doc:"fixed or floating"`
	Price       FlexString `json:"price" doc:"fixed: fiat per coin, 2 decimals"`
	PriceRate   FlexString `json:"priceRate" doc:"floating: percent of the reference rate, 70-130"`
	Volume      FlexString `json:"volume" v:"required" doc:"coins offered (SELL, held from the OTC account) or wanted (BUY)"`
	MinTrade    FlexString `json:"minTrade" v:"required" doc:"per-order minimum, fiat"`
	MaxTrade    FlexString `json:"maxTrade" v:"required" doc:"per-order maximum, fiat"`
	Payments    []string   `json:"payments" v:"required" doc:"ids of the merchant's payment methods (1-5)"`
	LimitTime   FlexInt    `json:"limitTime" v:"required" doc:"minutes the buyer has to pay: 15, 30, 45, 60, 120 or 180"`
	Description string     `json:"description" doc:"terms, at most 1000 characters"`
	KYCRequired bool       `json:"kycRequired" doc:"only verified takers"`
}

// P2POrderReq is buy_order_save and sell_order_save.
type P2POrderReq struct {
	AdvertID   string     `json:"advertId" v:"required"`
	Volume     FlexString `json:"volume" doc:"coins; or totalPrice"`
	TotalPrice FlexString `json:"totalPrice" doc:"fiat; the volume is what it buys, rounded down"`
	Payments   []string   `json:"payments" doc:"sell_order_save: the taker's payment methods the merchant pays to"`
}

// P2PReleaseReq is confirm_order.
type P2PReleaseReq struct {
	ID           string `json:"id" v:"required"`
	CapitalPword string `json:"capitalPword" v:"required" doc:"the fund (trade) password"`
}

// P2PComplainReq is complain_order.
type P2PComplainReq struct {
	ID          string   `json:"id" v:"required"`
	Reason      string   `json:"reason" v:"required" doc:"paid_not_released, not_received, paid_wrong_amount, seller_unresponsive, buyer_unresponsive, fraud or other"`
	Description string   `json:"description" v:"required" doc:"at most 1000 characters"`
	Evidence    []string `json:"evidence" doc:"upload ids of the caller's files, at most 5"`
}

// P2PChatReq is chatMsg/message: sends when content or image is given,
// and answers the chat (the messages after `after`).
type P2PChatReq struct {
	ID      string `json:"id" v:"required" doc:"the order"`
	Content string `json:"content" doc:"text to send, at most 1000 characters"`
	Image   string `json:"image" doc:"an upload id of the caller's to send"`
	After   string `json:"after" doc:"answer only the messages after this message id"`
}

// P2PPersonReq names a user (person_home_page, person_ads).
type P2PPersonReq struct {
	UID string `json:"uid" doc:"the user; the caller when empty (signed in)"`
	P2PPageReq
}

// P2PRateReq is otc/rates.
type P2PRateReq struct {
	CoinSymbol string `json:"coinSymbol" v:"required"`
	PaySymbol  string `json:"paySymbol" doc:"default MNT"`
}

// P2PRate is the reference rate floating prices follow.
type P2PRate struct {
	Coin string `json:"coinSymbol"`
	Fiat string `json:"paySymbol"`
	Rate string `json:"rate" doc:"fiat per coin"`
}

// P2PRelationReq is person_relationship and user_contacts_remove.
type P2PRelationReq struct {
	UID      string `json:"uid" doc:"the other trader"`
	Relation string `json:"relation" doc:"follow or block; empty lists"`
}

// P2PQuoteReq is quick_money/noToken/otc_channel_check.
type P2PQuoteReq struct {
	Side       string     `json:"side" v:"required" doc:"the caller's: BUY or SELL"`
	CoinSymbol string     `json:"coinSymbol" v:"required"`
	PaySymbol  string     `json:"paySymbol" doc:"default MNT"`
	Amount     FlexString `json:"amount" doc:"MNT; or volume"`
	Volume     FlexString `json:"volume" doc:"coins; or amount"`
}

// P2PBalance is quick_money/get_quick_sell_balance.
type P2PBalance struct {
	Coin      string `json:"coinSymbol"`
	Available string `json:"available" doc:"OTC account, available"`
}

// P2PPublicInfo is otc/public_info: what the P2P screens offer.
type P2PPublicInfo struct {
	Coins         []P2PCoin        `json:"coins"`
	Fiats         []string         `json:"fiats"`
	LimitTimes    []int            `json:"limitTimes" doc:"minutes an ad may give the buyer"`
	AppealReasons []string         `json:"appealReasons"`
	Payments      []paymethod.Kind `json:"payments" doc:"payment kinds"`
	MaxOpenAds    int              `json:"maxOpenAds"`
	MaxOpenOrders int              `json:"maxOpenOrders"`
	PriceRateMin  int              `json:"priceRateMin"`
	PriceRateMax  int              `json:"priceRateMax"`
}

// P2PCoin is a tradable coin and its amount precision.
type P2PCoin struct {
	Coin  string `json:"coinSymbol"`
	Scale int32  `json:"volumePrecision"`
}

// P2PPayReq is otc/payment/add and update.
type P2PPayReq struct {
	ID       string `json:"id" doc:"update: the method"`
	Payment  string `json:"payment" v:"required" doc:"kind: bank, qpay or socialpay"`
	Bank     string `json:"bank" doc:"bank: the bank's code (wallet bank list)"`
	Account  string `json:"account" v:"required" doc:"bank: the IBAN (MN + 18 digits); qpay, socialpay: the 8-digit phone"`
	UserName string `json:"userName" doc:"the holder: must be the verified name"`
}

// P2POpenReq is otc/payment/open.
type P2POpenReq struct {
	ID   string `json:"id" v:"required"`
	Open bool   `json:"open"`
}

// P2POK is the answer of calls that only succeed.
type P2POK struct {
	OK bool `json:"ok"`
}

// PathP2PChatImage serves the images of an order's chat and appeal to its two sides.
const PathP2PChatImage = "/fe-otc-api/chatMsg/image"

// NewP2PRouter serves the OTC service; files (nil where the deployment
// keeps no uploads) serves the chat's images to both sides.
func NewP2PRouter(svc *p2p.Service, pay *paymethod.Service, files *upload.Service, opts Options) *Router {
	if opts.Service == "" {
		opts.Service = "p2p"
	}
	r := NewRouter(opts)
	pub := func(s string) RouteOpts { return RouteOpts{Summary: s, Tag: "p2p"} }
	priv := func(s string) RouteOpts { return RouteOpts{Summary: s, Auth: Private, Tag: "p2p"} }
	const otc = "/fe-otc-api"

	Handle(r, otc+"/otc/public_info", pub("Coins, fiats, time limits, appeal reasons and payment kinds of P2P"),
		func(c *Call, _ *Empty) (P2PPublicInfo, error) {
			info := P2PPublicInfo{Fiats: p2p.Fiats, LimitTimes: p2p.PayMinutes, AppealReasons: p2p.AppealReasons, Payments: pay.Kinds(),
				MaxOpenAds: p2p.MaxOpenAds, MaxOpenOrders: p2p.MaxOpenOrders, PriceRateMin: p2p.MinMarginPct, PriceRateMax: p2p.MaxMarginPct}
			for _, coin := range []string{"USDT", "BTC", "ETH"} {
				if sc, ok := svc.Coins()[coin]; ok {
					info.Coins = append(info.Coins, P2PCoin{Coin: coin, Scale: sc})
				}
			}
			return info, nil
		})
	Handle(r, otc+"/otc/search", pub("Open ads for a taker: best price first, with each merchant's record"),
		func(c *Call, req *P2PSearchReq) (P2PList[p2p.Ad], error) {
			amt, err := decField("amount", req.Amount)
			if err != nil {
				return P2PList[p2p.Ad]{}, err
			}
			list, n, err := svc.Search(c.Ctx, c.Principal.UserID, p2p.SearchFilter{Side: req.Side, Coin: req.CoinSymbol,
				Fiat: fiatOr(req.PaySymbol), Amount: amt, Method: req.Payment, Page: int(req.Page.V), PageSize: int(req.PageSize.V)})
			return P2PList[p2p.Ad]{Count: n, List: orEmpty(list)}, err
		})
	Handle(r, otc+"/otc/v4/wanted_detail", pub("One ad with its current price and its merchant's record"),
		func(c *Call, req *P2PIDReq) (p2p.Ad, error) { return svc.AdDetail(c.Ctx, strings.TrimSpace(req.ID)) })
	Handle(r, otc+"/otc/rates", pub("The reference rate floating prices follow"),
		func(c *Call, req *P2PRateReq) (P2PRate, error) {
			coin, fiat := strings.ToUpper(req.CoinSymbol), fiatOr(req.PaySymbol)
			p, err := svc.ReferencePrice(c.Ctx, coin, fiat)
			return P2PRate{Coin: coin, Fiat: fiat, Rate: p.String()}, err
		})
	Handle(r, otc+"/otc/person_home_page", pub("A trader's P2P record: merchant state, trades, completion rate, release and payment times"),
		func(c *Call, req *P2PPersonReq) (p2p.Stats, error) {
			uid := strings.TrimSpace(req.UID)
			if uid == "" {
				uid = c.Principal.UserID
			}
			if uid == "" || len(uid) > 64 {
				return p2p.Stats{}, apperr.Param("uid")
			}
			return svc.Stats(c.Ctx, uid)
		})
	Handle(r, otc+"/otc/v4/person_ads", priv("A trader's ads: all of the caller's own, the open ones of anyone else"),
		func(c *Call, req *P2PPersonReq) (P2PList[p2p.Ad], error) {
			uid := strings.TrimSpace(req.UID)
			if uid == "" {
				uid = c.Principal.UserID
			}
			list, n, err := svc.PersonAds(c.Ctx, c.Principal.UserID, uid, int(req.Page.V), int(req.PageSize.V))
			return P2PList[p2p.Ad]{Count: n, List: orEmpty(list)}, err
		})
	Handle(r, otc+"/otc/wanted_save", priv("Publish an ad or change one (merchants only); a SELL ad holds its coins in the OTC account"),
		func(c *Call, req *P2PAdReq) (p2p.Ad, error) {
			in := p2p.AdInput{ID: strings.TrimSpace(req.ID), Side: req.Side, Coin: req.CoinSymbol, Fiat: fiatOr(req.PaySymbol),
				PriceType: req.PriceType, MethodIDs: req.Payments, PayMinutes: int(req.LimitTime.V), Terms: req.Description, KYC: req.KYCRequired}
			var err error
			for _, f := range []struct {
				name string
				v    FlexString
				to   *decimal.Decimal
			}{{"price", req.Price, &in.Price}, {"priceRate", req.PriceRate, &in.MarginPct}, {"volume", req.Volume, &in.Amount},
				{"minTrade", req.MinTrade, &in.MinFiat}, {"maxTrade", req.MaxTrade, &in.MaxFiat}} {
				if *f.to, err = decField(f.name, f.v); err != nil {
					return p2p.Ad{}, err
				}
			}
			return svc.SaveAd(c.Ctx, c.Principal.UserID, in)
		})
	Handle(r, otc+"/otc/close_wanted", priv("Close one of the caller's ads; a SELL ad's remaining coins return, open orders go on"),
		func(c *Call, req *P2PIDReq) (P2POK, error) {
			return P2POK{OK: true}, svc.CloseAd(c.Ctx, c.Principal.UserID, strings.TrimSpace(req.ID))
		})
	openOrder := func(side string) func(c *Call, req *P2POrderReq) (p2p.Order, error) {
		return func(c *Call, req *P2POrderReq) (p2p.Order, error) {
			vol, err := decField("volume", req.Volume)
			if err != nil {
				return p2p.Order{}, err
			}
			amt, err := decField("totalPrice", req.TotalPrice)
			if err != nil {
				return p2p.Order{}, err
			}
			return svc.OpenOrder(c.Ctx, c.Principal.UserID, p2p.OrderInput{AdID: strings.TrimSpace(req.AdvertID), Side: side,
				Volume: vol, Amount: amt, MethodIDs: req.Payments})
		}
	}
	Handle(r, otc+"/v4/otc/buy_order_save", priv("Buy from a SELL ad: the merchant's coins go into escrow; pay within the ad's time limit"),
		openOrder(p2p.Buy))
	Handle(r, otc+"/v4/otc/sell_order_save", priv("Sell to a BUY ad: the caller's coins are held in escrow from the OTC account"),
		openOrder(p2p.Sell))
	Handle(r, otc+"/v4/otc/order_detail", priv("One of the caller's orders"),
		func(c *Call, req *P2PIDReq) (p2p.Order, error) {
			return svc.Order(c.Ctx, c.Principal.UserID, strings.TrimSpace(req.ID))
		})
	Handle(r, otc+"/otc/order_cancel", priv("The buyer cancels an order before the release; the escrow returns to the seller"),
		func(c *Call, req *P2PIDReq) (p2p.Order, error) {
			return svc.Cancel(c.Ctx, c.Principal.UserID, strings.TrimSpace(req.ID))
		})
	Handle(r, otc+"/v4/otc/order_payed", priv("The buyer marks the order paid (before its payment time ends)"),
		func(c *Call, req *P2PIDReq) (p2p.Order, error) {
			return svc.MarkPaid(c.Ctx, c.Principal.UserID, strings.TrimSpace(req.ID))
		})
	Handle(r, otc+"/otc/confirm_order", priv("The seller confirms the payment and releases the coins to the buyer (fund password)"),
		func(c *Call, req *P2PReleaseReq) (p2p.Order, error) {
			return svc.Release(c.Ctx, c.Principal.UserID, strings.TrimSpace(req.ID), req.CapitalPword)
		})
	Handle(r, otc+"/otc/complain_order", priv("Either side appeals a paid order; the escrow stays held until an operator decides"),
		func(c *Call, req *P2PComplainReq) (p2p.Order, error) {
			return svc.Complain(c.Ctx, c.Principal.UserID, strings.TrimSpace(req.ID), req.Reason, req.Description, req.Evidence)
		})
	Handle(r, otc+"/otc/complain_cancel", priv("The appellant withdraws the appeal"),
		func(c *Call, req *P2PIDReq) (p2p.Order, error) {
			return svc.ComplainCancel(c.Ctx, c.Principal.UserID, strings.TrimSpace(req.ID))
		})
	Handle(r, otc+"/chatMsg/message", priv("An order's chat: sends the content or image given, answers the messages (after `after`)"),
		func(c *Call, req *P2PChatReq) ([]p2p.Message, error) {
			id := strings.TrimSpace(req.ID)
			if req.Content != "" || req.Image != "" {
				if _, err := svc.Send(c.Ctx, c.Principal.UserID, id, req.Content, strings.TrimSpace(req.Image)); err != nil {
					return nil, err
				}
			}
			return svc.Messages(c.Ctx, c.Principal.UserID, id, strings.TrimSpace(req.After))
		})
	r.handlePrivateRaw(http.MethodGet, PathP2PChatImage, RouteOpts{Tag: "p2p",
		Summary: "An image of one of the caller's orders (sent in its chat, or appeal evidence), whichever side sent it"},
		"?id=<order id>&image=<upload id>",
		"the image as /fe-ex-api/common/upload_file answers its owner (in AWS a 302 to a presigned URL that works for a minute); "+
			"errors: 17010 an order not the caller's, 16106 (HTTP 404) an image not of that order, 10002 not signed in",
		func(c *Call) error {
			q := c.Req.URL.Query()
			owner, err := svc.ChatImageOwner(c.Ctx, c.Principal.UserID, strings.TrimSpace(q.Get("id")), strings.TrimSpace(q.Get("image")))
			if err != nil {
				return err
			}
			if files == nil {
				return apperr.New(apperr.CodeUploadNotFound)
			}
			d, err := files.Download(c.Ctx, owner, strings.TrimSpace(q.Get("image")))
			if err != nil {
				return err
			}
			serveDownload(c, d)
			return nil
		})
	Handle(r, otc+"/otc/company_apply", priv("Apply to become a merchant (verified users); an operator decides"),
		func(c *Call, _ *Empty) (p2p.Stats, error) { return svc.MerchantApply(c.Ctx, c.Principal.UserID) })
	Handle(r, otc+"/otc/company_release", priv("A merchant with no open ad becomes a regular trader again"),
		func(c *Call, _ *Empty) (P2POK, error) {
			return P2POK{OK: true}, svc.MerchantRelease(c.Ctx, c.Principal.UserID)
		})

	// Contacts and blocks.
	Handle(r, otc+"/otc/person_relationship", priv("Follow or block a trader (relation follow or block); without a relation, the caller's contacts and blocks"),
		func(c *Call, req *P2PRelationReq) ([]p2p.Relation, error) {
			if req.Relation != "" {
				if err := svc.SetRelation(c.Ctx, c.Principal.UserID, strings.TrimSpace(req.UID), req.Relation); err != nil {
					return nil, err
				}
			}
			return svc.Relations(c.Ctx, c.Principal.UserID)
		})
	Handle(r, otc+"/otc/user_contacts_remove", priv("Forget a contact or lift a block; answers the caller's contacts and blocks"),
		func(c *Call, req *P2PRelationReq) ([]p2p.Relation, error) {
			if err := svc.RemoveRelation(c.Ctx, c.Principal.UserID, strings.TrimSpace(req.UID)); err != nil {
				return nil, err
			}
			return svc.Relations(c.Ctx, c.Principal.UserID)
		})

	// Express: one step against the best ad.
	Handle(r, otc+"/quick_money/noToken/otc_channel_check", pub("Express: the best ad that fills an amount (MNT) or a volume (coins) now, and the order it would be"),
		func(c *Call, req *P2PQuoteReq) (p2p.Quote, error) {
			amt, err := decField("amount", req.Amount)
			if err != nil {
				return p2p.Quote{}, err
			}
			vol, err := decField("volume", req.Volume)
			if err != nil {
				return p2p.Quote{}, err
			}
			return svc.Express(c.Ctx, c.Principal.UserID, p2p.QuoteInput{Side: req.Side, Coin: req.CoinSymbol,
				Fiat: fiatOr(req.PaySymbol), Amount: amt, Volume: vol})
		})
	Handle(r, otc+"/quick_money/get_quick_sell_balance", priv("Express: the caller's OTC balance of a coin, available to sell"),
		func(c *Call, req *P2PRateReq) (P2PBalance, error) {
			av, err := svc.Available(c.Ctx, c.Principal.UserID, req.CoinSymbol)
			return P2PBalance{Coin: strings.ToUpper(req.CoinSymbol), Available: av.String()}, err
		})

	// Payment methods (package paymethod).
	Handle(r, otc+"/otc/getCompanyPayment", pub("The payment kinds a method may be, with the banks"),
		func(c *Call, _ *Empty) ([]paymethod.Kind, error) { return pay.Kinds(), nil })
	Handle(r, otc+"/otc/payment/find", priv("The caller's payment methods"),
		func(c *Call, _ *Empty) ([]paymethod.Method, error) {
			list, err := pay.List(c.Ctx, c.Principal.UserID)
			return orEmpty(list), err
		})
	Handle(r, otc+"/otc/payment/add", priv("Add a payment method in the caller's verified name"),
		func(c *Call, req *P2PPayReq) (paymethod.Method, error) {
			return pay.Add(c.Ctx, c.Principal.UserID, paymethod.NewMethod{Kind: req.Payment, Bank: req.Bank, Account: req.Account, UserName: req.UserName})
		})
	Handle(r, otc+"/otc/payment/update", priv("Change one of the caller's payment methods"),
		func(c *Call, req *P2PPayReq) (paymethod.Method, error) {
			return pay.Update(c.Ctx, c.Principal.UserID, strings.TrimSpace(req.ID),
				paymethod.NewMethod{Kind: req.Payment, Bank: req.Bank, Account: req.Account, UserName: req.UserName})
		})
	Handle(r, otc+"/otc/payment/open", priv("Turn one of the caller's payment methods on or off (ads offer only open ones)"),
		func(c *Call, req *P2POpenReq) (paymethod.Method, error) {
			return pay.SetOpen(c.Ctx, c.Principal.UserID, strings.TrimSpace(req.ID), req.Open)
		})
	Handle(r, otc+"/otc/v4/payment/delete", priv("Delete one of the caller's payment methods (ads keep the copy they show)"),
		func(c *Call, req *P2PIDReq) (P2POK, error) {
			return P2POK{OK: true}, pay.Delete(c.Ctx, c.Principal.UserID, strings.TrimSpace(req.ID))
		})

	// The order lists of the exchange service (spec §7).
	Handle(r, "/fe-ex-api/v4/order/otc/unfinished", priv("The caller's unfinished P2P orders, newest first (data.orderList, data.count)"),
		func(c *Call, req *P2PPageReq) (P2POrderList, error) {
			list, n, err := svc.Orders(c.Ctx, c.Principal.UserID, true, int(req.Page.V), int(req.PageSize.V))
			return P2POrderList{Count: n, OrderList: orEmpty(list)}, err
		})
	Handle(r, "/fe-ex-api/v4/order/otc/complete", priv("The caller's finished P2P orders, newest first"),
		func(c *Call, req *P2PPageReq) (P2POrderList, error) {
			list, n, err := svc.Orders(c.Ctx, c.Principal.UserID, false, int(req.Page.V), int(req.PageSize.V))
			return P2POrderList{Count: n, OrderList: orEmpty(list)}, err
		})
	return r
}

// DevP2PMerchantReq is the operator's decision of a merchant application.
type DevP2PMerchantReq struct {
	UserID   string `json:"userId" v:"required"`
	Approve  bool   `json:"approve"`
	Operator string `json:"operator"`
}

// DevP2PDecideReq is the operator's decision of an appeal.
type DevP2PDecideReq struct {
	OrderID  string `json:"orderId" v:"required"`
	Outcome  string `json:"outcome" v:"required" doc:"release (to the buyer) or refund (to the seller)"`
	Note     string `json:"note"`
	Operator string `json:"operator"`
}

// DevP2POrderReq names an order.
type DevP2POrderReq struct {
	OrderID string `json:"orderId" v:"required"`
}

// NewDevP2PRouter serves the operator's P2P decisions in --dev (the CLI's
// `tenger p2p` cannot open the store while tenger serve holds it).
func NewDevP2PRouter(svc *p2p.Service, opts Options) *Router {
	if opts.Service == "" {
		opts.Service = "dev-p2p"
	}
	r := NewRouter(opts)
	dev := func(s string) RouteOpts { return RouteOpts{Summary: s + " (--dev only)", Auth: Public, Tag: "dev"} }
	Handle(r, "/dev/p2p/merchant", dev("P2P: an operator approves or refuses a merchant application, as `tenger p2p merchants decide` does"),
		func(c *Call, req *DevP2PMerchantReq) (P2POK, error) {
			return P2POK{OK: true}, svc.DecideMerchant(c.Ctx, strings.TrimSpace(req.UserID), devOperator(req.Operator), req.Approve)
		})
	Handle(r, "/dev/p2p/appeal/decide", dev("P2P: an operator decides an appeal, as `tenger p2p appeals decide` does"),
		func(c *Call, req *DevP2PDecideReq) (p2p.Order, error) {
			return svc.Decide(c.Ctx, strings.TrimSpace(req.OrderID), req.Outcome, devOperator(req.Operator), req.Note)
		})
	Handle(r, "/dev/p2p/order/expire", dev("P2P: an unpaid order's time to pay ends now; its timeout workflow cancels it (CANCELLED_BY_SYSTEM) and returns the escrow, as at the deadline"),
		func(c *Call, req *DevP2POrderReq) (p2p.Order, error) {
			return svc.EndPaymentTime(c.Ctx, strings.TrimSpace(req.OrderID))
		})
	return r
}

func fiatOr(s string) string {
	if s = strings.ToUpper(strings.TrimSpace(s)); s != "" {
		return s
	}
	return "MNT"
}

func orEmpty[T any](xs []T) []T {
	if xs == nil {
		return []T{}
	}
	return xs
}
