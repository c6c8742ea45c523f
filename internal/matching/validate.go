package matching

// Validate checks a command's own fields against a book configuration,
// without looking at the book's state (duplicate ids, crossing post-only
// orders, unknown orders and stop triggers are the book's checks). It
// returns ReasonNone when the command is well formed. cfg must be a book's
// normalised configuration (Book.Config).
//
// The checks run in a fixed order so that a command with several faults is
// always rejected for the same reason.
func (c *Command) Validate(cfg *BookConfig) Reason {
	switch c.Kind {
	case CmdPlace:
		return c.validatePlace(cfg)
	case CmdCancel:
		if c.OrderID == 0 {
			return ReasonInvalidCommand
		}
		return ReasonNone
	case CmdCancelAll:
		return ReasonNone
	case CmdAmend:
		if c.OrderID == 0 {
			return ReasonInvalidCommand
		}
		if c.Price < 0 || c.Price > cfg.MaxPrice {
			return ReasonInvalidPrice
		}
		if c.Qty < 1 || c.Qty > cfg.MaxQty {
			return ReasonInvalidQty
		}
		return ReasonNone
	}
	return ReasonInvalidCommand
}

func (c *Command) validatePlace(cfg *BookConfig) Reason {
	if c.OrderID == 0 || (c.Side != Buy && c.Side != Sell) || c.TIF < GTC || c.TIF > PostOnly || c.STP > STPDecrement {
		return ReasonInvalidCommand
	}
	switch c.Type {
	case Limit:
		if c.Quote != 0 {
			return ReasonInvalidCommand
		}
		if c.StopPrice != 0 && c.TIF == PostOnly {
			return ReasonInvalidCommand
		}
		if c.Price < 1 || c.Price > cfg.MaxPrice || c.StopPrice < 0 || c.StopPrice > cfg.MaxPrice {
			return ReasonInvalidPrice
		}
		if c.Qty < 1 || c.Qty > cfg.MaxQty {
			return ReasonInvalidQty
		}
		if c.Qty < cfg.MinQty {
			return ReasonBelowMinQty
		}
		// Price and Qty are bounded so the product cannot overflow.
		if c.Price*c.Qty < cfg.MinNotional {
			return ReasonBelowMinNotional
		}
		return ReasonNone
	case Market:
		if c.TIF != IOC || c.Price != 0 || c.StopPrice != 0 {
			return ReasonInvalidCommand
		}
		if c.Qty < 0 || c.Quote < 0 {
			return ReasonInvalidQty
		}
		if (c.Qty == 0 && c.Quote == 0) || (c.Quote != 0 && c.Side != Buy) {
			return ReasonInvalidCommand
		}
		if c.Quote > cfg.MaxPrice*cfg.MaxQty {
			return ReasonInvalidQty
		}
		if c.Qty != 0 {
			// By quantity; a buy's Quote, when given, caps what it spends.
			if c.Qty > cfg.MaxQty {
				return ReasonInvalidQty
			}
			if c.Qty < cfg.MinQty {
				return ReasonBelowMinQty
			}
			return ReasonNone
		}
		if c.Quote < cfg.MinNotional {
			return ReasonBelowMinNotional
		}
		return ReasonNone
	}
	return ReasonInvalidCommand
}
