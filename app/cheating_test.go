package app

import (
	"strings"
	"testing"

	"arbiter"
	"arbiter/sqlstore"
)

// TestCheatReportsPrivate: a player sends the TDs a private report (A6);
// only someone who plays in the event may send one, only the TDs read and
// close them, and the audit entry does not carry the report's words in its
// reason.
func TestCheatReportsPrivate(t *testing.T) {
	t.Parallel()
	backends(t, func(t *testing.T, s *Service, c *clock) {
		must(s.CreateEvent(ctx, td, NewEvent{Slug: "atc", Preset: "antichess-team-cup", Start: utc(2025, 1, 7, 0, 0)}))
		registerTeams(t, s, "atc", 10, 1, false)
		a01 := player("a01")
		_, err := s.ReportCheating(ctx, player("stranger"), "atc", CheatReportRequest{Suspect: "b02", Text: "engine moves"})
		wantErr(t, err, arbiter.EFORBIDDEN, "")
		_, err = s.ReportCheating(ctx, a01, "atc", CheatReportRequest{Text: "engine moves"})
		wantErr(t, err, arbiter.EINVALID, "A6")
		_, err = s.ReportCheating(ctx, a01, "atc", CheatReportRequest{Suspect: "b02"})
		wantErr(t, err, arbiter.EINVALID, "A6")
		_, err = s.ReportCheating(ctx, a01, "atc", CheatReportRequest{Suspect: "A01", Text: "x"})
		wantErr(t, err, arbiter.EINVALID, "A6")
		_, err = s.ReportCheating(ctx, a01, "atc", CheatReportRequest{Suspect: "b02", Match: "s9r9b9", Text: "x"})
		wantErr(t, err, arbiter.EINVALID, "A6")

		cr := must(s.ReportCheating(ctx, a01, "atc", CheatReportRequest{Suspect: "B02", Text: "  30 top-engine moves in game 3  "}))
		if cr.ID != "c1" || cr.By != "a01" || cr.Suspect != "b02" || cr.Text != "30 top-engine moves in game 3" {
			t.Fatalf("report %+v", cr)
		}

		_, err = s.CheatReports(ctx, a01, "atc")
		wantErr(t, err, arbiter.EFORBIDDEN, "")
		_, err = s.CheatReports(ctx, arbiter.Actor{Name: "cap01", Role: arbiter.RoleCaptain}, "atc")
		wantErr(t, err, arbiter.EFORBIDDEN, "")
		got := must(s.CheatReports(ctx, td, "atc"))
		if len(got) != 1 || got[0].Text != cr.Text {
			t.Fatalf("reports %+v", got)
		}
		_, err = s.CloseCheatReport(ctx, a01, "atc", "c1", "x")
		wantErr(t, err, arbiter.EFORBIDDEN, "")
		_, err = s.CloseCheatReport(ctx, td, "atc", "c1", "")
		wantErr(t, err, arbiter.EINVALID, "app.reason")
		closed := must(s.CloseCheatReport(ctx, td, "atc", "c1", "games checked: no evidence"))
		if !closed.Closed || closed.Outcome != "games checked: no evidence" {
			t.Fatalf("closed %+v", closed)
		}
		_, err = s.CloseCheatReport(ctx, td, "atc", "c1", "again")
		wantErr(t, err, arbiter.ECONFLICT, "")

		// The audit (TDs only) records the report; its reason, the line
		// summaries show, names no content.
		entries := must(s.Audit(ctx, td, "atc", sqlstore.AuditFilter{}))
		n := 0
		for _, e := range entries {
			if e.Kind == kindCheatReport {
				n++
				if strings.Contains(e.Reason, "b02") || strings.Contains(e.Reason, "engine") {
					t.Errorf("audit reason %q carries the report", e.Reason)
				}
			}
		}
		if n != 2 {
			t.Errorf("%d audit entries of reports, want 2 (made, closed)", n)
		}
	})
}
