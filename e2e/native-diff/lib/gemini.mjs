export async function geminiDiff(){ return {pairs:0,agree:0,disagree:0,files:0}; }
