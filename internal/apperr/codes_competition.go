package apperr

import "net/http"

// The futures trading competition (internal/competition): the operator's
// competitions, joining and its rules, the ranking and the prizes. Codes
// 18500–18599 belong to this area.
var (
	// CodeCompetitionUnknown: no such competition (%s names what was asked).
	CodeCompetitionUnknown = register("18500", http.StatusOK,
		"Unknown competition %s",
		"%s тэмцээн олдсонгүй")
	// CodeCompetitionNotStarted: the competition cannot be joined before its start (%s: the start, UTC).
	CodeCompetitionNotStarted = register("18501", http.StatusOK,
		"The competition has not started yet: it starts at %s UTC",
		"Тэмцээн хараахан эхлээгүй байна: %s UTC цагт эхэлнэ")
	// CodeCompetitionEnded: the competition is over and takes no one more.
	CodeCompetitionEnded = register("18502", http.StatusOK,
		"The competition has ended",
		"Тэмцээн дууссан байна")
	// CodeCompetitionKYC: joining needs a verified identity (KYC).
	CodeCompetitionKYC = register("18503", http.StatusOK,
		"Verify your identity (KYC) to join the competition",
		"Тэмцээнд оролцохын тулд хувийн мэдээллээ баталгаажуулна уу")
	// CodeCompetitionMobile: joining needs a bound mobile number.
	CodeCompetitionMobile = register("18504", http.StatusOK,
		"Bind a mobile number to join the competition",
		"Тэмцээнд оролцохын тулд гар утасны дугаараа холбоно уу")
	// CodeCompetitionFunds: the futures margin balance is below the minimum (%s the minimum, %s the coin).
	CodeCompetitionFunds = register("18505", http.StatusOK,
		"Your futures margin balance must be at least %s %s to join the competition",
		"Тэмцээнд оролцохын тулд фьючерс дансны барьцааны үлдэгдэл хамгийн багадаа %s %s байх ёстой")
	// CodeCompetitionFuturesAccount: joining needs an opened futures account.
	CodeCompetitionFuturesAccount = register("18506", http.StatusOK,
		"Open a futures account to join the competition",
		"Тэмцээнд оролцохын тулд фьючерс данс нээнэ үү")
	// CodeCompetitionSettled: the prizes were paid; the competition changes no more.
	CodeCompetitionSettled = register("18507", http.StatusOK,
		"The competition's prizes have already been paid",
		"Тэмцээний шагналыг аль хэдийн олгосон байна")
	// CodeCompetitionNotEnded: prizes are paid only once the competition has ended.
	CodeCompetitionNotEnded = register("18508", http.StatusOK,
		"The competition has not ended yet",
		"Тэмцээн хараахан дуусаагүй байна")
	// CodeCompetitionInvalid: an operator's competition definition breaks a rule (%s says which).
	CodeCompetitionInvalid = register("18509", http.StatusOK,
		"Invalid competition: %s",
		"Тэмцээний тохиргоо буруу: %s")
	// CodeCompetitionLocked: a competition that has started may change only its names and descriptions.
	CodeCompetitionLocked = register("18510", http.StatusOK,
		"The competition has started: only its names and descriptions may change",
		"Тэмцээн эхэлсэн тул зөвхөн нэр, тайлбарыг нь өөрчилж болно")
	// CodeCompetitionBusy: the ranking is being written by another refresh; try again.
	CodeCompetitionBusy = register("18511", http.StatusOK,
		"The ranking is being updated; try again shortly",
		"Эрэмбийг шинэчилж байна, түр хүлээгээд дахин оролдоно уу")
)
