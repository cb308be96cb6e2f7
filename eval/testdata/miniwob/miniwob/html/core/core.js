// A small stand-in for MiniWoB++'s core, written for webagent's tests. It
// implements what the harness uses: Math.seedrandom, core.setDataMode,
// core.EPISODE_MAX_TIME and the episode timer it sets (which ends the
// episode with -1, "timed out"), core.startEpisodeReal, core.getUtterance,
// the #sync-task-cover, the #reward-display and the WOB_* globals.
(function () {
  var state = 1;
  Math.seedrandom = function (seed) {
    state = (Number(seed) * 2654435761) % 4294967296 || 1;
    Math.random = function () {
      state = (1103515245 * state + 12345) % 2147483648;
      return state / 2147483648;
    };
  };
  window.WOB_DONE_GLOBAL = false;
  window.WOB_RAW_REWARD_GLOBAL = 0;
  window.WOB_REWARD_REASON = null;
  window.coverClicks = 0;
  window.episodes = 0;
  var core = {
    EPISODE_MAX_TIME: 10000,
    EP_TIMER: null,
    dataMode: 'test',
    utterance: '',
    setDataMode: function (m) { core.dataMode = m; },
    getUtterance: function () { return core.utteranceAsObject ? {utterance: core.utterance, fields: {}} : core.utterance; },
    startEpisodeReal: function () {
      window.episodes++;
      window.WOB_DONE_GLOBAL = false;
      window.WOB_RAW_REWARD_GLOBAL = 0;
      window.WOB_REWARD_REASON = null;
      document.getElementById('sync-task-cover').style.display = 'none';
      genProblem();
      if (core.EP_TIMER !== null) clearTimeout(core.EP_TIMER);
      core.EP_TIMER = setTimeout(function () { core.endEpisode(-1, 'timed out'); }, core.EPISODE_MAX_TIME);
    },
    endEpisode: function (reward, reason) {
      // As the real core does, only the first end of an episode counts.
      if (core.EP_TIMER === null) return;
      clearTimeout(core.EP_TIMER);
      core.EP_TIMER = null;
      window.WOB_DONE_GLOBAL = true;
      window.WOB_RAW_REWARD_GLOBAL = reward;
      window.WOB_REWARD_REASON = reason;
      document.getElementById('area').innerHTML = '';
      document.getElementById('sync-task-cover').style.display = 'block';
      // As the real core does, the human display is updated: it throws
      // when the display is gone.
      document.getElementById('reward-display').textContent = 'Last reward: ' + reward + ' Episodes done: ' + window.episodes;
    },
  };
  window.core = core;
  window.addEventListener('load', function () {
    var cover = document.createElement('div');
    cover.id = 'sync-task-cover';
    cover.textContent = 'START';
    cover.setAttribute('role', 'button');
    cover.style.cssText = 'position:absolute;left:0;top:0;width:160px;height:210px;background:#eee;display:block;cursor:pointer';
    cover.addEventListener('click', function () {
      window.coverClicks++;
      core.startEpisodeReal();
    });
    document.body.appendChild(cover);
    var display = document.createElement('div');
    display.id = 'reward-display';
    display.textContent = 'Last reward: - Episodes done: 0';
    document.body.appendChild(display);
  });
})();
