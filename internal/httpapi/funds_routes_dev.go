package httpapi

import (
	"errors"
	"html/template"
	"net/http"
	"strconv"
	"strings"

	"tenger/internal/apperr"
	"tenger/internal/banksim"
	"tenger/internal/chainsim"
	"tenger/internal/deposit"
)

// Dev funds routes (mounted only with --dev): the chain simulator
// (/dev/chain/*) and the bank simulator (/dev/bank/*).

// DevExplorerTxURL is the transaction page of the chain simulator's own
// explorer (GET /dev/chain/tx): with --dev the history links every chain's
// transactions there, as they exist only in the simulator.
const DevExplorerTxURL = "/dev/chain/tx?chain={chain}&txid={txid}"

// devTxPage is the simulator explorer's page of one transaction.
var devTxPage = template.Must(template.New("tx").Parse(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Chain simulator: transaction</title>
<style>body{font-family:system-ui,sans-serif;max-width:44rem;margin:3rem auto;padding:0 1rem}
dl{display:grid;grid-template-columns:max-content 1fr;gap:.4rem 1rem}dt{color:#555}dd{margin:0;overflow-wrap:anywhere}</style></head>
<body><h1>Chain simulator</h1><p>A transaction on the simulated {{.T.Chain}} chain.</p>
<dl><dt>Transaction</dt><dd id="txid">{{.T.TxID}}</dd><dt>Chain</dt><dd id="chain">{{.T.Chain}}</dd>
<dt>Direction</dt><dd id="direction">{{if eq .T.Dir "out"}}sent by the exchange{{else}}to the exchange{{end}}</dd>
<dt>Amount</dt><dd id="amount">{{.T.Amount}} {{.T.Coin}}</dd><dt>Address</dt><dd id="address">{{.T.Address}}</dd>
{{if .T.Memo}}<dt>Memo</dt><dd id="memo">{{.T.Memo}}</dd>{{end}}
<dt>Block</dt><dd id="height">{{.T.Height}}</dd><dt>Confirmations</dt><dd id="confirmations">{{.Confirmations}}</dd></dl>
</body></html>`))

// DevFunds are what the dev funds routes drive.
type DevFunds struct {
	Chain   *chainsim.Sim
	Bank    *banksim.Sim
	Deposit *deposit.Service
	// Watcher, when set, is scanned after every simulated deposit and
	// mined block, so the history is current when the call answers.
	Watcher *deposit.Watcher
	// Users resolves bank references to users (the auth service).
	Users deposit.Users
}

// DevChainDepositReq is a simulated transfer to an exchange address.
type DevChainDepositReq struct {
	Coin    string     `json:"coin" v:"required"`
	Chain   string     `json:"chain" v:"required"`
	Address string     `json:"address" v:"required"`
	Memo    FlexString `json:"memo"`
	Amount  FlexString `json:"amount" v:"required"`
}

// Validate bounds the fields.
func (r *DevChainDepositReq) Validate() error {
	if len(r.Coin) > 20 || len(r.Chain) > 20 || len(r.Address) > 200 || len(r.Memo) > 200 || len(r.Amount) > 40 {
		return apperr.Param("field too long")
	}
	return nil
}

// DevChainTx is the answer of a simulated deposit.
type DevChainTx struct {
	TxID   string `json:"txid"`
	Chain  string `json:"chain"`
	Height int64  `json:"height" doc:"block the transfer is in (mined with the next block)"`
}

// DevMineReq mines blocks.
type DevMineReq struct {
	Chain  string  `json:"chain" v:"required"`
	Blocks FlexInt `json:"blocks" doc:"default 1"`
}

// DevMineResp is the new height.
type DevMineResp struct {
	Chain  string `json:"chain"`
	Height int64  `json:"height"`
}

// DevBankIncomingReq is a bank notification of an incoming MNT transfer.
type DevBankIncomingReq struct {
	Amount    FlexString `json:"amount" v:"required"`
	Reference FlexString `json:"reference" doc:"the transfer's description: the user id"`
	BankTxID  FlexString `json:"bankTxId" v:"required" doc:"the bank's transaction id: credited once"`
}

// DevBankAssignReq credits a held bank deposit to a user.
type DevBankAssignReq struct {
	BankTxID FlexString `json:"bankTxId" v:"required"`
	UID      FlexString `json:"uid" v:"required"`
}

// DevReviewList lists held deposits.
type DevReviewList struct {
	List []deposit.Record `json:"list"`
}

func simErr(err error) error {
	if errors.Is(err, chainsim.ErrInput) || errors.Is(err, banksim.ErrInput) {
		return apperr.New(apperr.CodeSimInput, err.Error())
	}
	return err
}

// NewDevFundsRouter serves the chain and bank simulators.
func NewDevFundsRouter(d DevFunds, opts Options) *Router {
	if opts.Service == "" {
		opts.Service = "dev-funds"
	}
	r := NewRouter(opts)
	dev := func(s string) RouteOpts { return RouteOpts{Summary: s + " (--dev only)", Auth: Public, Tag: "dev"} }
	scan := func(c *Call) {
		if d.Watcher != nil {
			if err := d.Watcher.Scan(c.Ctx); err != nil {
				c.Log.Warn().Err(err).Msg("deposit scan")
			}
		}
	}
	Handle(r, "/dev/chain/deposit", dev("Chain simulator: a transfer to an address, in the next block (0 confirmations)"),
		func(c *Call, req *DevChainDepositReq) (DevChainTx, error) {
			t, err := d.Chain.Deposit(c.Ctx, chainsim.DepositReq{Coin: req.Coin, Chain: req.Chain, Address: req.Address,
				Memo: req.Memo.String(), Amount: req.Amount.String()})
			if err != nil {
				return DevChainTx{}, simErr(err)
			}
			scan(c)
			return DevChainTx{TxID: t.TxID, Chain: t.Chain, Height: t.Height}, nil
		})
	Handle(r, "/dev/chain/mine", dev("Chain simulator: mine blocks; deposits are credited after the coin's confirmations, sends confirmed"),
		func(c *Call, req *DevMineReq) (DevMineResp, error) {
			n := int(req.Blocks.V)
			if !req.Blocks.Set {
				n = 1
			}
			h, err := d.Chain.Mine(c.Ctx, req.Chain, n)
			if err != nil {
				return DevMineResp{}, simErr(err)
			}
			scan(c)
			return DevMineResp{Chain: req.Chain, Height: h}, nil
		})
	r.HandleRaw(http.MethodGet, "/dev/chain/txs", dev("Chain simulator: a chain's transfers and height"), "?chain=ERC20&limit=100",
		`{"code":"0","data":{"height":n,"list":[{"txid","coin","address","memo","amount","height","direction","ref"}]}}`,
		func(w http.ResponseWriter, hr *http.Request) {
			ch := hr.URL.Query().Get("chain")
			limit, _ := strconv.Atoi(hr.URL.Query().Get("limit"))
			if limit <= 0 || limit > 500 {
				limit = 100
			}
			h, err := d.Chain.Head(hr.Context(), ch)
			if err != nil {
				WriteError(w, hr, err)
				return
			}
			l, err := d.Chain.List(hr.Context(), ch, limit)
			if err != nil {
				WriteError(w, hr, err)
				return
			}
			WriteOK(w, hr, map[string]any{"height": h, "list": l})
		})
	r.HandleRaw(http.MethodGet, "/dev/chain/tx", dev("Chain simulator explorer: the page of one transaction (the history's explorer links in --dev)"),
		"?chain=ERC20&txid=0x...", "HTML page", func(w http.ResponseWriter, hr *http.Request) {
			q := hr.URL.Query()
			ch, txid := strings.TrimSpace(q.Get("chain")), strings.TrimSpace(q.Get("txid"))
			t, err := d.Chain.Get(hr.Context(), ch, txid)
			if err != nil || ch == "" || txid == "" {
				http.Error(w, "no such transaction on the simulated "+template.HTMLEscapeString(ch)+" chain", http.StatusNotFound)
				return
			}
			head, err := d.Chain.Head(hr.Context(), t.Chain)
			if err != nil {
				WriteError(w, hr, err)
				return
			}
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			w.Header().Set("Cache-Control", "no-store")
			_ = devTxPage.Execute(w, struct {
				T             chainsim.Transfer
				Confirmations int64
			}{t, t.Confirmations(head)})
		})
	Handle(r, "/dev/bank/incoming", dev("Bank simulator: an incoming MNT transfer; credited once per bankTxId to the user whose id is the reference, else held for review"),
		func(c *Call, req *DevBankIncomingReq) (deposit.Record, error) {
			return d.Deposit.CreditBank(c.Ctx, d.Users, deposit.BankTransfer{TxID: req.BankTxID.String(),
				Reference: req.Reference.String(), Amount: req.Amount.String()})
		})
	r.HandleRaw(http.MethodGet, "/dev/bank/review", dev("Deposits held for review (unknown bank reference or address)"), "",
		`{"code":"0","data":{"list":[deposit record]}}`, func(w http.ResponseWriter, hr *http.Request) {
			l, err := d.Deposit.Review(hr.Context())
			if err != nil {
				WriteError(w, hr, err)
				return
			}
			WriteOK(w, hr, DevReviewList{List: l})
		})
	Handle(r, "/dev/bank/review/assign", dev("Operator: credit a held bank deposit to a user"),
		func(c *Call, req *DevBankAssignReq) (deposit.Record, error) {
			return d.Deposit.AssignBank(c.Ctx, d.Users, req.BankTxID.String(), req.UID.String())
		})
	r.HandleRaw(http.MethodGet, "/dev/bank/confirm", dev("Bank simulator: the confirmation page of a bank withdrawal (Approve / Reject)"),
		"?id=<withdrawal id>", "HTML page", d.Bank.ServeConfirmPage)
	r.HandleRaw(http.MethodPost, "/dev/bank/confirm/answer", dev("Bank simulator: answer a bank withdrawal (form id, answer=approve|reject)"),
		"form id=<withdrawal id>&answer=approve|reject", "303 to the confirmation page", d.Bank.ServeAnswer)
	return r
}
