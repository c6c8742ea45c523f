package apperr

import "net/http"

// The account's own life (internal/account, internal/auth) and support
// tickets (internal/support). Codes 16200–16299 belong to this area:
// 16200–16219 the e-mail change and the cancellation, 16220–16239 the
// reasons a cancellation is refused (each one a line of
// check_user_cancellation_info, so the web app can show them in the
// user's language), 16240–16269 support tickets. Wrong or missing
// verification codes answer the profile service's codes (12xxx, 13015),
// as a withdrawal's do.
var (
	// CodeAccountCancelled: sign-in to an account its owner cancelled
	// (said only after the right password, so it tells nobody else
	// whether an address has a closed account).
	CodeAccountCancelled = register("16200", http.StatusOK,
		"This account has been closed. Contact support to reopen it",
		"Энэ бүртгэл хаагдсан байна. Дахин нээлгэхийн тулд тусламжийн төвд хандана уу")
	// CodeNewEmailCodeRequired: email_update without the code sent to the new address (operationType 5).
	CodeNewEmailCodeRequired = register("16201", http.StatusOK,
		"Please enter the code sent to the new e-mail address",
		"Шинэ имэйл хаяг руу илгээсэн кодыг оруулна уу")
	// CodeAccountChanged: the account changed between the checks of a
	// change and its commit (a deposit, an order, another settings
	// change); nothing was changed and the codes stay valid, so the user
	// checks again and retries.
	CodeAccountChanged = register("16202", http.StatusOK,
		"Your account changed while this was being saved. Please check again and retry",
		"Таны бүртгэлд хадгалах явцад өөрчлөлт орсон байна. Дахин шалгаад оролдоно уу")
	// CodeCancellationBlocked: user_cancellation while something still
	// needs the account; data is check_user_cancellation_info's answer
	// with every reason (the message counts them: the reasons' own texts
	// are in the data).
	CodeCancellationBlocked = register("16203", http.StatusOK,
		"The account cannot be closed yet. Items to settle first: %d",
		"Бүртгэлийг одоохондоо хаах боломжгүй. Эхлээд шийдвэрлэх зүйл: %d")
	// CodeAccountNotCancelled: an operator reopening an account that is
	// not closed.
	CodeAccountNotCancelled = register("16204", http.StatusOK,
		"This account is not closed",
		"Энэ бүртгэл хаагдаагүй байна")
	// CodeAccountUnknown: an operator naming a user id that has no account.
	CodeAccountUnknown = register("16205", http.StatusOK,
		"No account has the user id %s",
		"%s дугаартай бүртгэл байхгүй")
	// CodeCancellationReason: the optional reason for leaving is too long.
	CodeCancellationReason = register("16206", http.StatusOK,
		"The reason may be at most %d characters",
		"Шалтгаан дээд тал нь %d тэмдэгт байна")

	// CodeCancelBalance: a reason of a refused cancellation.
	CodeCancelBalance = register("16220", http.StatusOK,
		"You still hold funds (%s): withdraw or trade them first",
		"Танд хөрөнгө үлдсэн байна (%s): эхлээд татаж авах эсвэл арилжаална уу")
	// CodeCancelOpenOrders: a reason of a refused cancellation.
	CodeCancelOpenOrders = register("16221", http.StatusOK,
		"Open spot orders: %d. Cancel them first",
		"Нээлттэй спот захиалга: %d. Эхлээд цуцална уу")
	// CodeCancelPendingWithdrawals: a reason of a refused cancellation.
	CodeCancelPendingWithdrawals = register("16222", http.StatusOK,
		"Withdrawals still being processed: %d. Wait until they finish",
		"Боловсруулагдаж буй зарлага: %d. Дуусахыг хүлээнэ үү")
	// CodeCancelPendingTransfers: a reason of a refused cancellation.
	CodeCancelPendingTransfers = register("16223", http.StatusOK,
		"Transfers between your accounts still on their way: %d. Wait a minute",
		"Дансуудын хооронд хийгдэж буй шилжүүлэг: %d. Түр хүлээнэ үү")
	// CodeCancelPendingDeposits: a reason of a refused cancellation.
	CodeCancelPendingDeposits = register("16224", http.StatusOK,
		"Deposits waiting for confirmations: %d. Wait until they are credited",
		"Баталгаажуулалт хүлээж буй орлого: %d. Орлого орохыг хүлээнэ үү")

	// CodeTicketNotFound: no such ticket of the caller (another user's
	// ticket answers the same).
	CodeTicketNotFound = register("16240", http.StatusOK,
		"Ticket not found",
		"Хүсэлт олдсонгүй")
	// CodeTicketClosed: a reply to a closed ticket (open a new one).
	CodeTicketClosed = register("16241", http.StatusOK,
		"This ticket is closed. Please open a new one",
		"Энэ хүсэлт хаагдсан байна. Шинээр хүсэлт үүсгэнэ үү")
	// CodeTicketType: a type outside the list.
	CodeTicketType = register("16242", http.StatusOK,
		"Unknown ticket type %s",
		"%s төрлийн хүсэлт байхгүй")
	// CodeTicketTitle: the title is empty or too long.
	CodeTicketTitle = register("16243", http.StatusOK,
		"The title must be 1 to %d characters",
		"Гарчиг 1-ээс %d тэмдэгт байх ёстой")
	// CodeTicketText: a description or reply empty or too long.
	CodeTicketText = register("16244", http.StatusOK,
		"The message must be 1 to %d characters",
		"Мессеж 1-ээс %d тэмдэгт байх ёстой")
	// CodeTicketAttachments: more attachments than a message takes.
	CodeTicketAttachments = register("16245", http.StatusOK,
		"A message takes at most %d attachments",
		"Нэг мессежид дээд тал нь %d файл хавсаргана")
	// CodeTicketAttachment: an attachment id that is not one of the
	// caller's uploads (or attachments are not taken here).
	CodeTicketAttachment = register("16246", http.StatusOK,
		"An attachment was not found among your uploads",
		"Хавсралт таны илгээсэн файлуудаас олдсонгүй")
	// CodeTicketDailyLimit: too many tickets opened today; data {retryAfter}.
	CodeTicketDailyLimit = register("16247", http.StatusOK,
		"You can open at most %d tickets a day. Please add to an open ticket instead",
		"Өдөрт дээд тал нь %d хүсэлт үүсгэнэ. Нээлттэй хүсэлтдээ нэмж бичнэ үү")
	// CodeTicketFull: the ticket holds the most messages it may.
	CodeTicketFull = register("16248", http.StatusOK,
		"This ticket has reached %d messages. Please open a new one",
		"Энэ хүсэлт %d мессежид хүрсэн. Шинээр хүсэлт үүсгэнэ үү")
	// CodeTicketStatus: a status filter outside open, answered, closed.
	CodeTicketStatus = register("16249", http.StatusOK,
		"Unknown ticket status %s: use open, answered or closed",
		"%s төлөв байхгүй: open, answered эсвэл closed ашиглана уу")
)
