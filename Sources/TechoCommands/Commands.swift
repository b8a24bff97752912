// The list of commands, in the order `techo --help` shows them.

let allCommands: [TechoCommand.Type] = [
    InitCommand.self,
    PageAddCommand.self, PageListCommand.self, PageRemoveCommand.self, PageMoveCommand.self,
    AddImageCommand.self, AddPhotoCommand.self, AddStickerCommand.self, AddTextCommand.self, AddWashiCommand.self,
    DrawCommand.self,
    GestureCommand.self,
    SetCommand.self, RemoveCommand.self, RaiseCommand.self, LowerCommand.self,
    BackgroundCommand.self, ClearCommand.self,
    UndoCommand.self, RedoCommand.self, HistoryCommand.self,
    ShowCommand.self,
    ExportCommand.self, BuildCommand.self,
    CheckCommand.self, GCCommand.self, FontsCommand.self,
    StickersListCommand.self, StickersAddCommand.self, StickersRemoveCommand.self,
]
