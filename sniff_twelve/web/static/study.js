// The pages of a study (`study run`): a participant's way through (consent, the tutorial hand,
// the blocks of hands, each followed by its questions, the completion code) and the admin page.
// The server keeps where each participant stands; every page load asks it, so a closed tab or a
// restarted server resumes at the last acknowledged move or answer. Loaded before app.js, whose
// helpers ($, make, api, show, playPage) it uses once that has run.
"use strict";

async function studyPage(id) {
  const code = new URLSearchParams(location.search).get("p") || "";
  const base = `/api/study/${encodeURIComponent(id)}`;
  for (const link of document.querySelectorAll("header .free")) link.hidden = true;
  $("#leave").parentElement.hidden = true;
  const post = (what, body) => api(`${base}/${what}`, {p: code, ...body});
  const reload = () => location.reload();
  let state;
  try {
    state = await api(`${base}?p=${encodeURIComponent(code)}`);
  } catch (error) {
    show("study");
    $("#study-error").textContent = error.message;
    return;
  }
  document.body.dataset.stage = state.stage;
  document.body.dataset.key = state.key || state.stage;
  const where = state.blocks ? ` · step ${state.step + 1} of ${state.steps - 1}` : "";
  $("#study-where").textContent = `study ${state.study}${where}`;
  const withdrawLine = $("#withdraw-line");
  withdrawLine.hidden = !["tutorial", "hand", "questions", "done"].includes(state.stage);
  $("#withdraw").onclick = async () => {
    if (!confirm("Withdraw from the study? Everything you played and answered is deleted.")) return;
    await post("withdraw", {});
    reload();
  };
  if (state.stage === "tutorial" || state.stage === "hand") {
    const label = state.stage === "tutorial" ? "Practice hand (not counted)" :
      `Block ${state.block + 1} of ${state.blocks} · hand ${state.hand + 1} of ${state.hands}`;
    $("#study-where").textContent = `${label}${where}`;
    document.querySelector("#play").append(withdrawLine);
    return playPage(state.token, {next: async () => {
      try {
        await post("next", {key: state.key});
      } finally {
        reload();
      }
    }});
  }
  show("study");
  const message = $("#study-message");
  if (state.stage === "consent") {
    $("#consent").innerHTML = state.consent;  // the server's Markdown, every character escaped there
    $("#consent-buttons").hidden = false;
    const answer = async (agree) => {
      $("#agree").disabled = $("#decline").disabled = true;
      try {
        await post("consent", {agree});
        reload();
      } catch (error) {
        $("#study-error").textContent = error.message;
        $("#agree").disabled = $("#decline").disabled = false;
      }
    };
    $("#agree").onclick = () => answer(true);
    $("#decline").onclick = () => answer(false);
    return;
  }
  $("#consent").hidden = true;
  if (state.stage === "questions") {
    const form = $("#questions");
    form.hidden = $("#questions-buttons").hidden = false;
    message.textContent = `Block ${state.block + 1} of ${state.blocks} is over. A few questions about it:`;
    for (const q of state.questions) {
      const set = make("fieldset", {"data-question": q.id}, make("legend", {text: q.text}));
      if (q.scale === "1-7") {
        const scale = make("div", {class: "scale"}, make("span", {class: "hint", text: "1 (not at all)"}));
        for (let k = 1; k <= 7; k++) {
          const input = make("input", {type: "radio", name: q.id, value: String(k), id: `${q.id}-${k}`});
          scale.append(make("label", {for: input.id}, input, ` ${k}`));
        }
        scale.append(make("span", {class: "hint", text: "7 (very much)"}));
        set.append(scale);
      } else {
        set.append(make("textarea", {name: q.id, maxlength: "2000"}));
      }
      form.append(set);
    }
    $("#submit-answers").onclick = async () => {
      const answers = {};
      for (const q of state.questions) {
        if (q.scale === "1-7") {
          const chosen = form.querySelector(`input[name="${q.id}"]:checked`);
          if (!chosen) {
            $("#study-error").textContent = `Please answer: ${q.text}`;
            return;
          }
          answers[q.id] = Number(chosen.value);
        } else {
          answers[q.id] = form.querySelector(`textarea[name="${q.id}"]`).value;
        }
      }
      $("#submit-answers").disabled = true;
      try {
        await post("answers", {key: state.key, answers});
        reload();
      } catch (error) {
        $("#study-error").textContent = error.message;
        $("#submit-answers").disabled = false;
      }
    };
  } else if (state.stage === "done") {
    message.replaceChildren("Thank you: the study is complete. Your completion code is ",
      make("code", {id: "completion-code", text: state.completion_code}), ".");
  } else if (state.stage === "declined") {
    message.textContent = "You did not agree to take part: the study ends here, and nothing was kept. You may close this tab.";
  } else if (state.stage === "withdrawn") {
    message.textContent = "You have withdrawn from the study: everything you played and answered has been deleted. You may close this tab.";
  }
}

async function adminPage(id) {
  show("admin");
  for (const link of document.querySelectorAll("header .free")) link.hidden = true;
  $("#admin-study").textContent = id;
  const token = decodeURIComponent(location.hash.slice(1));  // after #: never sent in a request line
  const headers = {Authorization: `Bearer ${token}`};
  const base = `/api/study/${encodeURIComponent(id)}`;
  const response = await fetch(`${base}/admin`, {headers});
  const data = await response.json().catch(() => ({}));
  if (!response.ok) {
    $("#admin-error").textContent = data.error || response.statusText;
    return;
  }
  $("#admin-summary").textContent = `${data.participants.length} participants · ` +
    `${data.participants.filter((p) => p.finished).length} finished · ${data.withdrawals} withdrawn · ` +
    `${data.declines} declined`;
  $("#admin-list").replaceChildren(...data.participants.map((p) => make("tr", {"data-code": p.code},
    make("td", {text: String(p.index)}),
    make("td", {text: p.code}),
    make("td", {text: p.order.join(" → ")}),
    make("td", {text: `${p.stage} (${p.step} of ${p.steps})`}),
    make("td", {text: String(p.hands_played)}),
    make("td", {class: "done", text: p.conditions_done.join(", ")}),
    make("td", {text: p.finished || ""}))));
  document.body.dataset.loaded = "true";
  $("#export").onclick = async () => {
    const reply = await fetch(`${base}/export.csv`, {headers});
    if (!reply.ok) {
      $("#admin-error").textContent = (await reply.json().catch(() => ({}))).error || reply.statusText;
      return;
    }
    const link = make("a", {href: URL.createObjectURL(await reply.blob()), download: `${id}.csv`});
    document.body.append(link);
    link.click();
    link.remove();
  };
}
